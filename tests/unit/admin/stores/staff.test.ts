import { describe, expect, it } from 'vitest';
import { $staffChanged, notifyStaffChanged } from '../../../../src/admin/stores/staff.ts';

describe('$staffChanged', () => {
  it('moves on every notification, so listeners reload', () => {
    const seen: number[] = [];
    const unsubscribe = $staffChanged.listen((value) => seen.push(value));
    const start = $staffChanged.get();
    notifyStaffChanged();
    notifyStaffChanged();
    unsubscribe();
    expect(seen).toEqual([start + 1, start + 2]);
  });
});
