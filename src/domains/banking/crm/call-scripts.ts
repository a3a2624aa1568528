/**
 * The call script CS-14 (card and address service) that comes with each TellerLink/32 task as a
 * PDF (seed task T20: "complete call script input/call_script.pdf for caller nina_berg_871"):
 * the same five steps for every call, and a call sheet per task with what the caller said to
 * the IVR (the verification answers, the new address, the card). The notes the script prescribes
 * per outcome are fixed, so a completed call leaves one exact call record.
 */
import type { DocLine, TaskDocument } from '../../../surfaces/pixel-app.js';

/** What a call sheet holds. */
export interface CallSheet {
  caller: { first: string; last: string; city: string; state: string };
  answers: { date_of_birth: string; ssn_last4: string; zip: string };
  newAddress: { line1: string; line2: string | null; city: string; state: string; zip: string };
  card: { last4: string; problem: string };
}

/** The notes the script prescribes per outcome code. */
export const SCRIPT_NOTES = { 'RES-FULL': 'CS-14 completed', 'RES-PART': 'CS-14 partly completed', 'UNV-FAIL': 'CS-14 caller not verified' } as const;

/** The call sheets of the tasks TellerLink/32 fronts, by task id. */
export const CALL_SHEETS: Record<string, CallSheet> = {
  T20: {
    caller: { first: 'Nina', last: 'Berg', city: 'Minneapolis', state: 'MN' },
    answers: { date_of_birth: '1990-07-23', ssn_last4: '8712', zip: '55408' },
    newAddress: { line1: '1457 Grand Ave', line2: 'Apt 2B', city: 'Saint Paul', state: 'MN', zip: '55105' },
    card: { last4: '5502', problem: 'the chip is damaged' },
  },
  C01: {
    caller: { first: 'Omar', last: 'Haddad', city: 'Chicago', state: 'IL' },
    answers: { date_of_birth: '1979-09-14', ssn_last4: '5129', zip: '60611' },
    newAddress: { line1: '1550 N State Pkwy', line2: 'Unit 1402', city: 'Chicago', state: 'IL', zip: '60610' },
    card: { last4: '9034', problem: 'the card is cracked' },
  },
  C02: {
    caller: { first: 'Ivy', last: 'Tran', city: 'Santa Clara', state: 'CA' },
    answers: { date_of_birth: '1993-05-12', ssn_last4: '2653', zip: '95054' },
    newAddress: { line1: '2150 Monroe St', line2: 'Apt 31', city: 'Santa Clara', state: 'CA', zip: '95050' },
    card: { last4: '1265', problem: 'the magnetic stripe is worn' },
  },
  C03: {
    caller: { first: 'Lena', last: 'Fischer', city: 'Denver', state: 'CO' },
    answers: { date_of_birth: '1984-06-08', ssn_last4: '4471', zip: '80211' },
    newAddress: { line1: 'PO Box 4471', line2: null, city: 'Denver', state: 'CO', zip: '80201' },
    card: { last4: '6218', problem: 'the card is bent' },
  },
  C04: {
    caller: { first: 'Hannah', last: 'Okafor', city: 'Atlanta', state: 'GA' },
    answers: { date_of_birth: '1998-04-11', ssn_last4: '5836', zip: '30306' },
    newAddress: { line1: '1080 Peachtree St NE', line2: 'Apt 1502', city: 'Atlanta', state: 'GA', zip: '30309' },
    card: { last4: '3306', problem: 'the chip is damaged' },
  },
};

const oneLine = (a: CallSheet['newAddress']) => `${a.line1}${a.line2 ? `, ${a.line2}` : ''}, ${a.city}, ${a.state} ${a.zip}`;

/** The call script document for a call sheet (the PDF's content). */
export function callScriptDocument(sheet: CallSheet): TaskDocument {
  const h = (text: string): DocLine => ({ text, bold: true, size: 12 });
  const t = (text: string): DocLine => ({ text });
  const gap: DocLine = { text: '' };
  const lines: DocLine[] = [
    t('Meridian Savings Bank - Customer Service - TEST REGION. Use TellerLink/32 only.'),
    gap,
    h('Call sheet'),
    t(`Caller: ${sheet.caller.first} ${sheet.caller.last}, ${sheet.caller.city}, ${sheet.caller.state}.`),
    t(`Answers given to the IVR: date of birth ${sheet.answers.date_of_birth}; SSN last four ${sheet.answers.ssn_last4}; ZIP code ${sheet.answers.zip}.`),
    t(`Requests: new mailing address ${oneLine(sheet.newAddress)}; a replacement for the debit card ending ${sheet.card.last4} (${sheet.card.problem}) by expedited delivery.`),
    gap,
    h('Step 1 - Find the customer'),
    t("Search by last and first name. Several customers can share a name: open the one in the caller's city."),
    h('Step 2 - Verify the caller (3 fields)'),
    t('Enter the three answers (date of birth, SSN last four, ZIP code) in Caller Verification and press Verify. Continue only when the panel shows VERIFIED. If verification fails, change nothing: go to step 5 with outcome UNV-FAIL.'),
    h('Step 3 - Mailing address'),
    t('On the Addresses tab enter the new mailing address and save it. If the system rejects the address, keep the address on file, do not order a card (it would ship to the old address), and go to step 5 with outcome RES-PART.'),
    h('Step 4 - Replacement debit card'),
    t('On the Cards tab select the card and choose Replace Card. Block reason: Damaged. Delivery: Expedited. The $25.00 expedited delivery fee is waived ONLY when the customer tier is Premier (the tier is shown beside the customer name); for every other tier the fee applies and must not be waived. If a replacement for the card is already on order (a card with status ORDERED), do not order another one: outcome RES-PART.'),
    h('Step 5 - Wrap-up'),
    t('On the Wrap-up tab select the outcome code and save the call record with the notes below, typed exactly.'),
    t(`RES-FULL (every request completed): notes "${SCRIPT_NOTES['RES-FULL']}".`),
    t(`RES-PART (a request could not be completed): notes "${SCRIPT_NOTES['RES-PART']}".`),
    t(`UNV-FAIL (the caller failed verification): notes "${SCRIPT_NOTES['UNV-FAIL']}".`),
    gap,
    t('Function keys: F3 Search, F5 Verify, F6 Profile, F7 Addresses, F8 Cards, F9 Wrap-up, F12 Save, Esc Cancel.'),
  ];
  return { fileName: 'call_script.pdf', title: 'Call Script CS-14: Card and Address Service', lines };
}
