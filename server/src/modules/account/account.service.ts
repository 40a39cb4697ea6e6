import type { AccountDetails, UpdateAccountDetails } from '@cloudtrim/contracts/account';
import { updateAccountDetailsSchema } from '@cloudtrim/contracts/account';
import { notFound } from '../../lib/http-errors';
import type { User, AccountRepository } from './account.repository';

export class AccountService {
  constructor(private readonly users: AccountRepository) {}

  async getDetails(userId: string): Promise<AccountDetails> {
    const user = await this.users.findById(userId);
    if (!user) throw notFound('Account not found.');
    return toAccountDetails(user);
  }

  async updateDetails(userId: string, input: UpdateAccountDetails): Promise<AccountDetails> {
    const details = updateAccountDetailsSchema.parse(input);
    const user = await this.users.updateProfile(userId, {
      firstName: details.FirstName,
      lastName: details.LastName,
      address1: details.Address1,
      address2: details.Address2,
      city: details.City,
      state: details.State,
      zipcode: details.Zipcode,
      country: details.Country,
      companySize: details.CompanySize,
      annualRevenue: details.AnnualRevenue,
      industry: details.Industry,
    });
    if (!user) throw notFound('Account not found.');
    return toAccountDetails(user);
  }
}

function toAccountDetails(user: User): AccountDetails {
  return {
    FirstName: user.firstName,
    LastName: user.lastName,
    Email: user.email,
    Address1: user.address1,
    Address2: user.address2,
    City: user.city,
    State: user.state,
    Zipcode: user.zipcode,
    Country: user.country,
    CompanySize: user.companySize,
    AnnualRevenue: user.annualRevenue,
    Industry: user.industry,
  };
}
