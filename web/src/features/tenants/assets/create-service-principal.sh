#!/usr/bin/env bash
# Creates the service principal Cloudtrim connects with, and grants it what Cloudtrim needs on each
# subscription: Reader (inventory), Monitoring Reader (metrics) and Virtual Machine Contributor
# (resize, start and stop). Prints the three values to paste into Cloudtrim's Add Tenant form.
#
# Usage: create-service-principal.sh [--name NAME] SUBSCRIPTION_ID [SUBSCRIPTION_ID ...]
# Needs the Azure CLI (https://learn.microsoft.com/cli/azure/install-azure-cli), signed in with
# `az login` as someone allowed to create app registrations and assign roles on those subscriptions.
set -euo pipefail

name="cloudtrim"
subscription_ids=()

print_usage() {
  echo "Usage: $0 [--name NAME] SUBSCRIPTION_ID [SUBSCRIPTION_ID ...]" >&2
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --name)
      [[ $# -ge 2 ]] || { print_usage; exit 2; }
      name="$2"
      shift 2
      ;;
    -h | --help)
      print_usage
      exit 0
      ;;
    -*)
      echo "Unknown option: $1" >&2
      print_usage
      exit 2
      ;;
    *)
      subscription_ids+=("$1")
      shift
      ;;
  esac
done

if [[ ${#subscription_ids[@]} -eq 0 ]]; then
  print_usage
  exit 2
fi

guid_pattern='^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
scopes=()
for subscription_id in "${subscription_ids[@]}"; do
  if [[ ! $subscription_id =~ $guid_pattern ]]; then
    echo "Not a subscription id: $subscription_id" >&2
    exit 2
  fi
  scopes+=("/subscriptions/$subscription_id")
done

command -v az >/dev/null || { echo "The Azure CLI (az) is not installed." >&2; exit 1; }
az account show --output none 2>/dev/null || { echo "Sign in first: az login" >&2; exit 1; }

echo "Creating service principal '$name' with Reader on ${#scopes[@]} subscription(s)..." >&2
created=$(
  az ad sp create-for-rbac --name "$name" --role Reader --scopes "${scopes[@]}" \
    --query '[tenant, appId, password]' --output tsv
)
read -r tenant_id application_id secret <<<"$(tr '\t\n' '  ' <<<"$created")"
if [[ -z ${secret:-} ]]; then
  echo "The Azure CLI did not return the new service principal's credentials." >&2
  exit 1
fi

for scope in "${scopes[@]}"; do
  for role in "Virtual Machine Contributor" "Monitoring Reader"; do
    echo "Assigning $role on $scope..." >&2
    # A new principal can take a few seconds to reach every Entra ID replica; retry until it does.
    for attempt in 1 2 3 4 5 6; do
      if az role assignment create --assignee "$application_id" --role "$role" --scope "$scope" \
        --output none 2>/dev/null; then
        break
      fi
      if [[ $attempt -eq 6 ]]; then
        echo "Could not assign $role on $scope." >&2
        exit 1
      fi
      sleep 10
    done
  done
done

cat <<RESULT

Paste these into Cloudtrim's Add Tenant form (keep the secret safe; Azure shows it only once):
  Tenant ID:      $tenant_id
  Application ID: $application_id
  Secret:         $secret
RESULT
