import t from 'tap';
import { readKycRecords, validateKycRecords } from '../../src/index.js';

const ALICE = 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw';
const BOB = 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y';

t.test('JSON and CSV files give the same records', async (t) => {
  const json = readKycRecords(
    'kyc.json',
    JSON.stringify([
      { account: ALICE, kycApproved: true },
      { account: BOB, kycApproved: false },
    ]),
  );
  const csv = readKycRecords('kyc.csv', `account,kycApproved\n${ALICE},true\n${BOB},false\n`);
  t.same(validateKycRecords(json), validateKycRecords(csv));
  t.same(validateKycRecords(csv).records, [
    { account: ALICE, kycApproved: true },
    { account: BOB, kycApproved: false },
  ]);
  t.throws(() => readKycRecords('kyc.json', '{"account":"x"}'), /array/);
});

t.test('every problem is reported with its record and field', async (t) => {
  const { problems } = validateKycRecords([
    { account: 'rNotAnAddress', kycApproved: true },
    { account: ALICE, kycApproved: 'yes' },
    { account: ALICE },
    { account: BOB, kycApproved: true, note: 'x' },
    { account: BOB, kycApproved: false },
    'text',
  ]);
  t.same(problems, [
    { record: 1, field: 'account', message: 'not a valid classic address' },
    { record: 2, field: 'kycApproved', message: 'required, true or false' },
    { record: 3, field: 'kycApproved', message: 'required, true or false' },
    { record: 4, field: 'note', message: 'unknown field' },
    { record: 5, field: 'account', message: 'duplicate of record 4' },
    { record: 6, field: '', message: 'not an object' },
  ]);
});
