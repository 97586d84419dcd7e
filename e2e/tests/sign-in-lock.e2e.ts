import { test, expect, uniqueName } from '../support/fixtures';
import { StrataApi } from '../support/api';

// Repeated wrong passwords lock an email; the sign-in page says so, and for how long, even when the
// right password follows.
test('the sign-in page says an email is locked after repeated wrong passwords', async ({ page, stack, signInPage, consoleGuard }) => {
  consoleGuard.allow({ url: /\/v1\/session$/, method: 'POST', status: 401 });
  consoleGuard.allow({ url: /\/v1\/session$/, method: 'POST', status: 429 });
  const email = `${uniqueName('locked')}@example.test`;
  await new StrataApi(stack.url, stack.adminToken).createUser(email, 'correct-horse-battery');
  await signInPage.goto();
  for (let i = 0; i < 5; i++) {
    await signInPage.signIn(email, `wrong-password-${i}`);
    await expect(signInPage.error).toContainText('The email or password is incorrect.');
    // The next attempt must not count before this one's answer is shown: wait for the request to settle.
    await expect(signInPage.submit).toBeEnabled();
  }
  await signInPage.signIn(email, 'correct-horse-battery');
  await expect(signInPage.error).toContainText('sign-in for this email is locked for 15 minutes');
  await expect(page).toHaveURL(/sign-in/);
});
