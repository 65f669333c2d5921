import bcrypt from 'bcryptjs';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, passwordHashCost } from '../../../supabase/local/auth/users.ts';

const saved = process.env.LOCAL_AUTH_HASH_COST;
afterEach(() => {
  if (saved === undefined) delete process.env.LOCAL_AUTH_HASH_COST;
  else process.env.LOCAL_AUTH_HASH_COST = saved;
});

describe('the local backend\'s bcrypt cost', () => {
  it('is GoTrue\'s 10 unless LOCAL_AUTH_HASH_COST says otherwise, and the hash is GoTrue\'s $2a$ one', async () => {
    delete process.env.LOCAL_AUTH_HASH_COST;
    expect(passwordHashCost()).toBe(10);
    const hash = await hashPassword('correct-horse-1');
    expect(hash).toMatch(/^\$2a\$10\$/);
    expect(await bcrypt.compare('correct-horse-1', hash)).toBe(true);
  });

  it('takes 4 to 14 from LOCAL_AUTH_HASH_COST, and a hash of one cost is checked against another\'s setting', async () => {
    expect(passwordHashCost({ LOCAL_AUTH_HASH_COST: '4' })).toBe(4);
    expect(passwordHashCost({ LOCAL_AUTH_HASH_COST: '14' })).toBe(14);
    expect(passwordHashCost({ LOCAL_AUTH_HASH_COST: '' })).toBe(10);
    process.env.LOCAL_AUTH_HASH_COST = '4';
    const cheap = await hashPassword('correct-horse-1');
    expect(cheap).toMatch(/^\$2a\$04\$/);
    delete process.env.LOCAL_AUTH_HASH_COST;
    expect(await bcrypt.compare('correct-horse-1', cheap)).toBe(true);
    expect(await bcrypt.compare('wrong-horse-1', cheap)).toBe(false);
  });

  it('refuses anything else with the variable\'s name', () => {
    for (const value of ['3', '15', '10.5', 'ten', '-4']) {
      expect(() => passwordHashCost({ LOCAL_AUTH_HASH_COST: value })).toThrow(`LOCAL_AUTH_HASH_COST must be a whole number from 4 to 14, not "${value}"`);
    }
  });
});
