// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useForm, useWatch } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { canSubmitNewPassword } from '../lib/new-password';
import { NewPasswordFields } from './new-password-fields';

function PasswordForm() {
  const { register, control } = useForm({ defaultValues: { password: '', confirmation: '' } });
  const [password, confirmation] = useWatch({ control, name: ['password', 'confirmation'] });
  return (
    <form>
      <NewPasswordFields
        idPrefix="test"
        passwordLabel="New Password"
        confirmationLabel="Confirm New Password"
        password={password}
        confirmation={confirmation}
        passwordField={register('password')}
        confirmationField={register('confirmation')}
      />
      <button type="submit" disabled={!canSubmitNewPassword(password, confirmation)}>
        SAVE
      </button>
    </form>
  );
}

function type(label: string, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}

function readChecklist(): string[] {
  const list = screen.getByRole('list', { name: 'Password rules' });
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent?.replace(/^[✓○]/, '') ?? '');
}

afterEach(cleanup);

describe('<NewPasswordFields>', () => {
  it('starts with every rule unmet and submit disabled', () => {
    render(<PasswordForm />);
    expect(readChecklist()).toEqual([
      'Not met: Between 10 and 36 characters',
      'Not met: Does not begin or end with a space',
      expect.stringMatching(/^Not met: At least 3 of/),
    ]);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'SAVE' }).disabled).toBe(true);
  });

  it('ticks each rule live as the password changes', async () => {
    render(<PasswordForm />);
    type('New Password', 'lowercase only');
    await waitFor(() => expect(readChecklist()[0]).toBe('Met: Between 10 and 36 characters'));
    expect(readChecklist()[1]).toBe('Met: Does not begin or end with a space');
    expect(readChecklist()[2]).toMatch(/^Not met: At least 3 of/);

    type('New Password', 'Mixed-Case-1');
    await waitFor(() => expect(readChecklist()[2]).toMatch(/^Met: At least 3 of/));
    expect(readChecklist().every((line) => line.startsWith('Met: '))).toBe(true);

    type('New Password', ' Mixed-Case-1');
    await waitFor(() => expect(readChecklist()[1]).toBe('Not met: Does not begin or end with a space'));
  });

  it('says the passwords do not match only once the confirmation is typed, and enables submit when equal', async () => {
    render(<PasswordForm />);
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'SAVE' });
    type('New Password', 'Mixed-Case-1');
    expect(screen.queryByText('Passwords do not match.')).toBeNull();

    type('Confirm New Password', 'Mixed-Case-2');
    expect(await screen.findByText('Passwords do not match.')).toBeTruthy();
    expect(screen.getByLabelText('Confirm New Password').classList.contains('is-invalid')).toBe(true);
    expect(button.disabled).toBe(true);

    type('Confirm New Password', 'Mixed-Case-1');
    await waitFor(() => expect(button.disabled).toBe(false));
    expect(screen.queryByText('Passwords do not match.')).toBeNull();
    expect(screen.getByLabelText('Confirm New Password').classList.contains('is-invalid')).toBe(false);
  });
});
