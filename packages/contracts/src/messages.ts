// The user-facing texts of SPEC §2 and §8, shared by the web, the server and the tests. The characters are
// SPEC's own (straight quotes, three dots). Where SPEC only paraphrases a text, the wording is ours and
// says so.
export { loginFailedText } from './auth';
export { passwordMismatchText } from './password-rules';

// Start page, unknown route and shell
export const taglineText = 'Unify. Automate. Optimize.';
export const invalidUrlText = 'This url is not valid.';
export const loadingText = 'Loading';
export const comingSoonText = 'COMING SOON';
export const notAvailableText = 'N/A';

export function greetingText(firstName: string): string {
  return `Hi, ${firstName}`;
}

// Login headers, chosen by the query
export const signupCompleteLoginText = 'Your account has been created, please login to continue.';
export const sessionExpiredLoginText = 'Your session has expired, please login to continue.';
export const passwordUpdatedLoginText = 'Your password has been updated, please login to continue.';
export const defaultLoginText = 'Enter your email and password to login.';
export const forgotPasswordLinkText = 'Forgot Password?';
export const signUpLinkText = 'Sign Up';

// Shared by the sign-in area
export const thankYouText = 'Thank you!';
export const nothingToSeeText = 'Nothing to See Here.';
export const genericErrorText = 'We encountered an error, please try again later.';
export const networkErrorText = 'Network error. Please check your connection and try again.';

// Recover (/recover). The success sentence is ours: SPEC paraphrases it.
export const recoverSuccessText =
  'If that email address is associated with an account, you will receive an email with a link to reset your password.';
export const recoverInvalidEmailText = 'Invalid email address. Please check your email and try again.';
export const recoverNoAccountText = 'No account found with that email address...';
export const recoverTooManyRequestsText =
  'Too many password reset requests. Please wait a few minutes before trying again.';
export const recoverServerErrorText = 'Server error. Please try again in a few minutes.';

// Reset with code (/ResetPassword). The invalid-link sentence is ours: SPEC paraphrases it.
export const resetLinkInvalidText = 'This password reset link has expired or is invalid.';
export const resetInvalidRequestText = 'Invalid request. Please check your information and try again.';
export const resetInvalidCodeText =
  'Invalid or expired reset code. Please request a new password reset link.';
export const resetAccountNotFoundText = 'Account not found. Please verify your email address.';
export const resetAlreadyCompletedText = 'Password reset has already been completed for this code.';
export const resetPasswordRequirementsText =
  'Password does not meet requirements. Please try a different password.';
export const resetTooManyAttemptsText = 'Too many attempts. Please try again later.';
export const resetServerErrorText = 'Server error. Please try again later.';

// SPEC: other statuses show the status, its text and the server message; the layout is ours.
export function resetOtherErrorText(status: number, statusText: string, message: string): string {
  return [`Error ${status}: ${statusText}`.trim(), message].filter(Boolean).join(' - ');
}

// Sign-up (/signup). The success and 403 sentences are ours: SPEC paraphrases them.
export const signupSuccessText =
  'A confirmation email will arrive shortly. Follow its link to finish signing up.';
export const captchaRequiredText = 'Please check this box before you submit the form.';
export const signupEmailInUseText = 'That email is already in use.';
export const signupTooSoonText =
  "We sent a confirmation email to that address a few minutes ago. If you don't receive an email in the next five minutes, please try again.";
export const signupTooManyRequestsText =
  'A confirmation email has been requested for that address more than the allowed number of times. Please contact support.';

// Verify (/verify)
export const verifyLinkExpiredText = 'This email verification link has expired. A new email has been sent...';
export const verifyErrorText = 'There was an error with your verification email.';

// Account completion, profile and password change
export const accountCompletionErrorText = 'There was an error submitting your form. Please Try again later.';
export const changePasswordErrorText = 'There was an error submitting your form. Please try again later.';
export const profileUpdatedText = 'Your profile has been updated.';
// SPEC §8 names no text for a failed profile save; the form failure sentence of the password change.
export const profileSaveErrorText = changePasswordErrorText;
export const logOutAllDevicesText = 'Log out of all devices';

// Automation modal
export const automationUpdateFailedText = 'There was an error in updating automation settings';
export const automationUpdatedText = 'Automation settings have been updated';

// Tenants (/tenants)
export const manageTenantsHeading = 'Manage Your Tenants';
export const addTenantHeading = 'Add Tenant';
export const setupGuideHeading = 'Setup Guide';
export const tenantNotAuthenticatedText =
  'The tenant cannot be authenticated, please check your IDs and secret and try again.';
export const tenantExistsText = 'This tenant already exists for your account.';
export const tenantSaveErrorText = 'There was an error saving the tenant. Please try again later.';

export function tenantAddedText(alias: string): string {
  return `Tenant "${alias}" has been successfully added and configured.`;
}

export const tenantRenameUnsupportedText = 'Tenant renaming is not currently supported by the API.';
export const tenantDeleteForbiddenText = "You don't have authorization to delete this tenant.";
export const tenantDeleteServerErrorText = 'There was a server error, please try again.';
export const tenantDeleteErrorText = 'There was an error deleting the tenant. Please try again.';

// Team (/team)
export const inviteHeading = 'Invite Colleagues';
export const colleagueEmailLabel = 'Colleague Email';
export const yourTeamHeading = 'Your Team';
export const noTeamMembersText = 'No team members right now.';
export const inviteSuccessText = 'Thank you, your colleague will be invited to sign up for the product.';
export const inviteErrorText = 'There was an error submitting your form. Please Try again later.';
export const addColleagueErrorText = 'Error adding colleague';

export function inviteConflictText(email: string): string {
  return `${email} either already has an account of the product or has already been invited.`;
}

// Pending Automation (/pending). The advice sentence is ours: SPEC paraphrases it.
export const noPendingAutomationText = 'No pending automation right now, check back later.';
export const scheduleForText = 'Schedule for';
export const backToPendingAutomationText = '← Back to Pending Automation';
export const noScheduledChangesHeading = 'No Scheduled Changes';
export const noScheduledChangesText = 'No automation is currently scheduled for this resource.';
export const scheduleLoadFailedHeading = 'Unable to Load Schedule Data';
export const unknownErrorText = 'Unknown error occurred';
export const scheduleLoadFailedAdviceText =
  'Please refresh the page, or contact support if the problem persists.';

// 'Error: ' plus the status text or message, as load failures show it.
export function loadErrorText(detail: string | undefined): string {
  return `Error: ${detail || unknownErrorText}`;
}

// Recent Activity and Cloud Resources
export const noRecentActivityText = 'No recent activity right now, check back later.';
export const activityFetchErrorText = 'Error fetching activity logs';
export const noCloudResourcesText = 'No cloud resources right now, check back later.';
export const cloudResourcesFetchErrorText = 'Error fetching cloud resources';
export const activityLogsForText = 'Activity Logs for';
export const backToCloudResourcesText = '← Back to Cloud Resources';
export const unknownTenantText = 'Unknown Tenant';
export const defaultGroupText = 'Default Group';
export const resourceSavedText = 'Values Updated';
export const resourceSaveFailedText = 'Error saving values';
export const cloudResourceSaveErrorText = 'Error saving cloud resource';

// A load failure shows the empty state only when the network itself failed (SPEC §8).
const networkFailureMarkers = ['Failed to fetch', 'ERR_NAME_NOT_RESOLVED'];

export function isNetworkFailureMessage(message: string): boolean {
  return networkFailureMarkers.some((marker) => message.includes(marker));
}

// Recommendations, automation logs, search and metrics
export const noRecommendationsText = 'No recommendations right now, check back later.';
export const noAutomationLogsText = 'No automation logs right now, check back later.';
export const noMetricsText = 'This resource contains no metrics currently.';
export const applyNowText = 'APPLY NOW';
export const appliedText = 'APPLIED';
export const applyAtMaintenanceWindowText = 'APPLY AT MAINTENANCE WINDOW';
export const appliedAtMaintenanceWindowText = 'APPLIED AT MAINTENANCE WINDOW';

// SPEC writes 'No search results found for ...'; the search text stands in the quotes.
export function noSearchResultsText(search: string): string {
  return `No search results found for "${search}".`;
}

// Pagination
export function pagingSummaryText(
  first: number,
  last: number,
  total: number,
  page: number,
  pageCount: number,
) {
  return `Showing ${first} to ${last} of ${total} entries • Page ${page} of ${pageCount}`;
}
