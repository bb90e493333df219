import t from 'tap';
import { compareVersionsDesc } from '../../src/shapers/data-sets.js';

t.test('rippled versions, newest first', async (t) => {
  const versions = [
    '1.12.0',
    '2.3.0-rc2',
    'rippled-1.2.1',
    '2.3.0',
    '2.3.0-b1',
    '1.9.4',
    'unknown',
    '2.10.0',
    '2.3.0-rc10',
  ];
  t.same([...versions].sort(compareVersionsDesc), [
    '2.10.0',
    '2.3.0',
    '2.3.0-rc10',
    '2.3.0-rc2',
    '2.3.0-b1',
    '1.12.0',
    '1.9.4',
    'rippled-1.2.1',
    'unknown',
  ]);
});
