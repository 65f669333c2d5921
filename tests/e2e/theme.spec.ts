import { expect, test, waitForIslands } from './fixtures';

test('the theme toggle cycles system → light → dark → system and survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await waitForIslands(page);
  const toggle = page.getByRole('button', { name: /Switch to .* theme/ });
  const html = page.locator('html');

  await expect(toggle).toHaveAccessibleName('Switch to light theme');
  await toggle.click();
  await expect(toggle).toHaveAccessibleName('Switch to dark theme');
  await expect(html).not.toHaveClass(/dark/);
  await toggle.click();
  await expect(toggle).toHaveAccessibleName('Switch to system theme');
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

  await page.reload();
  await expect(html).toHaveClass(/dark/);
  await waitForIslands(page);
  await expect(toggle).toHaveAccessibleName('Switch to system theme');
  await toggle.click();
  await expect(html).not.toHaveClass(/dark/);
  await expect(toggle).toHaveAccessibleName('Switch to light theme');
});

test('the page carries the Tailwind styles', async ({ page }) => {
  await page.goto('/');
  const heading = page.getByRole('heading', { level: 1 });
  // text-4xl from Tailwind: 2.25rem = 36px at the default font size (md:text-6xl above 768 px is 60px).
  const size = await heading.evaluate((el) => getComputedStyle(el).fontSize);
  expect(['36px', '60px']).toContain(size);
});
