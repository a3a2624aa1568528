/**
 * The records the seed airline tasks name (`seeds/001_14d444b6cd11c72e.txt`: T01, T02, T03, T15,
 * T17), laid over the generated dataset. Every number here is chosen so the task has exactly one
 * policy-correct outcome; the task files document the arithmetic.
 *
 * Each task also has a decoy the gold path never touches ({@link SEED_DECOYS}): another
 * reservation of the same customer on the same or a similar route, and each seed customer has a
 * namesake (same first and last name, another user id, date of birth and address).
 */
import { Rng } from '../../../util/rng.js';
import { makeFlight, type Json } from './network.js';

const landed = (date: string, dep: string, arr: string): Json => ({ status: 'landed', actual_departure_time_est: `${date}T${dep}`, actual_arrival_time_est: `${date}T${arr}` });
const avail = (be: number, ec: number, bu: number, seats = 9): Json => ({
  status: 'available',
  available_seats: { basic_economy: seats, economy: seats, business: seats },
  prices: { basic_economy: be, economy: ec, business: bu },
});

function flight(fn: string, o: string, d: string, dep: string, minutes: number, overrides: Json): Json {
  const f = makeFlight(new Rng(Number(fn.slice(3)) * 7919), fn, o, d, dep, minutes);
  Object.assign(f.dates, overrides);
  return f;
}

/** Flights named by the seed tasks (numbers HAT1xx–HAT4xx; generated filler uses HAT5xx+). */
export function seedFlights(): Json {
  return {
    // T01: Mia's basic-economy flight and the next day she asks for.
    HAT205: flight('HAT205', 'JFK', 'SEA', '08:00:00', 380, { '2026-10-20': avail(129, 219, 610), '2026-10-21': avail(119, 209, 590), '2026-10-27': avail(117, 213, 587) }),
    // T02: Raj's round trip; business prices of today used for the upgrade.
    HAT330: flight('HAT330', 'LAX', 'DEN', '09:30:00', 150, { '2026-10-22': avail(97, 181, 517), '2026-10-29': avail(93, 169, 503) }),
    HAT331: flight('HAT331', 'DEN', 'LAX', '17:00:00', 155, { '2026-10-26': avail(103, 189, 493) }),
    // T03: the delayed flight (13:00 -> 18:00, 5 h, not departed) and the decoy (on time).
    HAT118: flight('HAT118', 'BOS', 'ORD', '13:00:00', 150, {
      '2026-10-04': landed('2026-10-04', '13:07:00', '15:31:00'),
      '2026-10-14': { status: 'delayed', estimated_departure_time_est: '2026-10-14T18:00:00', estimated_arrival_time_est: '2026-10-14T20:30:00' },
    }),
    HAT181: flight('HAT181', 'BOS', 'MIA', '16:00:00', 190, {
      '2026-10-14': { status: 'on time', estimated_departure_time_est: '2026-10-14T16:00:00', estimated_arrival_time_est: '2026-10-14T19:10:00' },
    }),
    // T15: Ivan's five reservations; HAT440 on 10-16 was cancelled by the airline.
    HAT412: flight('HAT412', 'ORD', 'ATL', '07:15:00', 125, { '2026-10-25': avail(88, 160, 420) }),
    HAT420: flight('HAT420', 'ORD', 'LAX', '10:00:00', 260, { '2026-10-05': landed('2026-10-05', '10:04:00', '14:19:00'), '2026-10-28': avail(140, 230, 690) }),
    HAT421: flight('HAT421', 'LAX', 'ORD', '12:00:00', 245, { '2026-10-31': avail(150, 240, 700) }),
    HAT430: flight('HAT430', 'ORD', 'DFW', '11:30:00', 150, { '2026-10-27': avail(92, 170, 455) }),
    HAT440: flight('HAT440', 'ORD', 'SEA', '08:45:00', 270, { '2026-10-16': { status: 'cancelled' } }),
    HAT450: flight('HAT450', 'ORD', 'BOS', '15:20:00', 130, { '2026-10-29': avail(79, 150, 400) }),
    // T17: Helen's family trip.
    HAT301: flight('HAT301', 'JFK', 'SFO', '07:00:00', 390, { '2026-10-20': avail(150, 180, 640), '2026-10-21': avail(165, 245, 655) }),
    HAT302: flight('HAT302', 'SFO', 'JFK', '09:00:00', 330, { '2026-10-27': avail(160, 210, 600) }),
    HAT306: flight('HAT306', 'SFO', 'JFK', '13:00:00', 330, { '2026-10-27': avail(175, 230, 620) }),
  };
}

const pm = {
  card: (id: string, brand: string, last4: string) => ({ source: 'credit_card', id, brand, last_four: last4 }),
  gift: (id: string, amount: number) => ({ source: 'gift_card', id, amount }),
  cert: (id: string, amount: number) => ({ source: 'certificate', id, amount }),
};
const addr = (a: string, city: string, state: string, zip: string) => ({ address1: a, address2: null, city, country: 'USA', state, zip });
const person = (first_name: string, last_name: string, dob: string) => ({ first_name, last_name, dob });

function user(user_id: string, first: string, last: string, dob: string, membership: string, methods: Json[], reservations: string[], address: Json): Json {
  return {
    user_id,
    name: { first_name: first, last_name: last },
    address,
    email: `${user_id.replace(/_\d+$/, '').replace('_', '.')}@example.com`,
    dob,
    payment_methods: Object.fromEntries(methods.map((m) => [m.id, m])),
    saved_passengers: [],
    membership,
    reservations,
  };
}

/** Customers named by the seed airline tasks (membership, payment methods, reservations). */
export function seedUsers(): Json {
  const family = [person('Helen', 'Park', '1982-03-09'), person('Daniel', 'Park', '1980-11-21')];
  return {
    mia_lee_301: user('mia_lee_301', 'Mia', 'Lee', '1991-06-12', 'regular', [pm.card('credit_card_3010001', 'visa', '4242')], ['ML7QRS', '8KQ2ZD'], addr('12 Harbor Road', 'New York', 'NY', '10001')),
    raj_patel_118: user('raj_patel_118', 'Raj', 'Patel', '1985-02-03', 'regular', [pm.card('credit_card_1180001', 'mastercard', '5510'), pm.gift('gift_card_1180002', 1650.75)], ['Q7M4LT', 'RP5DNV'], addr('77 Cedar Lane', 'Los Angeles', 'CA', '90012')),
    ana_gomez_442: user('ana_gomez_442', 'Ana', 'Gomez', '1979-09-30', 'gold', [pm.card('credit_card_4420001', 'visa', '8831')], ['W2GQ8B', '3PZK9W', '5TRD22'], addr('5 Elm Court', 'Boston', 'MA', '02118')),
    ivan_novak_908: user('ivan_novak_908', 'Ivan', 'Novak', '1988-12-01', 'silver', [pm.card('credit_card_9080001', 'visa', '1207'), pm.gift('gift_card_9080002', 120)], ['IV0PST', 'IV1A24', 'IV2BUS', 'IV3INS', 'IV4CXL', 'IV5BEC'], addr('400 Lake View', 'Chicago', 'IL', '60601')),
    helen_park_150: {
      ...user('helen_park_150', 'Helen', 'Park', '1982-03-09', 'gold', [pm.card('credit_card_1500001', 'visa', '3344'), pm.cert('certificate_1500002', 100), pm.cert('certificate_1500003', 50)], ['HPOUT1', 'HPRET2', 'HPRET3', 'HPSFO4'], addr('9 Maple Avenue', 'New York', 'NY', '10025')),
      saved_passengers: family,
    },
    ...namesakes(),
  };
}

/** One namesake per seed customer: same first and last name, another id, dob, tier and zip. */
function namesakes(): Json {
  return {
    mia_lee_7314: user('mia_lee_7314', 'Mia', 'Lee', '1994-02-17', 'silver', [pm.card('credit_card_7314001', 'mastercard', '9120')], [], addr('230 Pine Street', 'Seattle', 'WA', '98103')),
    raj_patel_6045: user('raj_patel_6045', 'Raj', 'Patel', '1979-10-08', 'gold', [pm.card('credit_card_6045001', 'visa', '3087'), pm.gift('gift_card_6045002', 412.63)], [], addr('1450 Sunset Drive', 'Los Angeles', 'CA', '90027')),
    ana_gomez_3907: user('ana_gomez_3907', 'Ana', 'Gomez', '1990-04-22', 'silver', [pm.card('credit_card_3907001', 'visa', '6618')], [], addr('88 River Road', 'Miami', 'FL', '33130')),
    ivan_novak_5526: user('ivan_novak_5526', 'Ivan', 'Novak', '1961-07-30', 'regular', [pm.card('credit_card_5526001', 'mastercard', '4402')], [], addr('17 Oak Street', 'Chicago', 'IL', '60614')),
    helen_park_2718: user('helen_park_2718', 'Helen', 'Park', '1975-12-03', 'silver', [pm.card('credit_card_2718001', 'visa', '7781'), pm.cert('certificate_2718002', 150)], [], addr('61 West 14th Street', 'New York', 'NY', '10011')),
  };
}

function res(id: string, user_id: string, cabin: string, flights: Json[], passengers: Json[], paid: [string, number][], created_at: string, bags: [number, number], insurance: 'yes' | 'no', flight_type = 'one_way'): Json {
  return {
    reservation_id: id,
    user_id,
    origin: flights[0].origin,
    destination: flight_type === 'round_trip' ? flights[0].destination : flights[flights.length - 1].destination,
    flight_type,
    cabin,
    flights,
    passengers,
    payment_history: paid.map(([payment_id, amount]) => ({ payment_id, amount })),
    created_at,
    total_baggages: bags[0],
    nonfree_baggages: bags[1],
    insurance,
    status: null,
  };
}
const seg = (origin: string, destination: string, flight_number: string, date: string, price: number) => ({ flight_number, origin, destination, date, price });

/** Reservations named by the seed airline tasks; prices in whole dollars, times EST. */
export function seedReservations(): Json {
  const mia = [person('Mia', 'Lee', '1991-06-12')];
  const raj = [person('Raj', 'Patel', '1985-02-03'), person('Asha', 'Patel', '1987-07-19')];
  const ana = [person('Ana', 'Gomez', '1979-09-30'), person('Luis', 'Gomez', '1977-01-15')];
  const ivan = [person('Ivan', 'Novak', '1988-12-01')];
  const parents = [person('Helen', 'Park', '1982-03-09'), person('Daniel', 'Park', '1980-11-21')];
  const kids = [person('Mina', 'Park', '2012-05-02'), person('Leo', 'Park', '2015-08-17')];
  return {
    // T01: basic economy, booked 5 days ago; decoy: her economy trip on the same flight a week later.
    ML7QRS: res('ML7QRS', 'mia_lee_301', 'economy', [seg('JFK', 'SEA', 'HAT205', '2026-10-27', 226)], mia, [['credit_card_3010001', 226]], '2026-10-02T19:41:00', [1, 0], 'no'),
    '8KQ2ZD': res('8KQ2ZD', 'mia_lee_301', 'basic_economy', [seg('JFK', 'SEA', 'HAT205', '2026-10-20', 129)], mia, [['credit_card_3010001', 129]], '2026-10-09T10:12:00', [0, 0], 'no'),
    // T02: economy round trip, 2 passengers, 2 bags (regular economy: 1 free each), paid
    // (173 + 186) x 2 = $718; decoy: Raj's own insured one-way on the same outbound flight a week later.
    Q7M4LT: res('Q7M4LT', 'raj_patel_118', 'economy', [seg('LAX', 'DEN', 'HAT330', '2026-10-22', 173), seg('DEN', 'LAX', 'HAT331', '2026-10-26', 186)], raj, [['credit_card_1180001', 718]], '2026-09-28T18:40:00', [2, 0], 'no', 'round_trip'),
    RP5DNV: res('RP5DNV', 'raj_patel_118', 'economy', [seg('LAX', 'DEN', 'HAT330', '2026-10-29', 177)], [raj[0]], [['credit_card_1180001', 207]], '2026-10-06T08:15:00', [1, 0], 'yes'),
    // T03: the delayed flight's reservation and the decoys: 5TRD22 today on HAT181 (on time) and
    // W2GQ8B, Ana's trip on the same flight HAT118 ten days ago (landed).
    W2GQ8B: res('W2GQ8B', 'ana_gomez_442', 'economy', [seg('BOS', 'ORD', 'HAT118', '2026-10-04', 198)], [ana[0]], [['credit_card_4420001', 198]], '2026-09-12T16:20:00', [1, 0], 'no'),
    '3PZK9W': res('3PZK9W', 'ana_gomez_442', 'economy', [seg('BOS', 'ORD', 'HAT118', '2026-10-14', 210)], ana, [['credit_card_4420001', 420]], '2026-09-30T09:05:00', [2, 0], 'no'),
    '5TRD22': res('5TRD22', 'ana_gomez_442', 'economy', [seg('BOS', 'MIA', 'HAT181', '2026-10-14', 240)], [ana[0]], [['credit_card_4420001', 240]], '2026-10-01T11:30:00', [1, 0], 'no'),
    // T15: eligible: IV1A24 (booked 10 h ago), IV2BUS (business), IV4CXL (airline-cancelled flight);
    // not eligible: IV3INS (insured, but the reason is a change of plans), IV5BEC (basic economy, old).
    // Decoy: IV0PST, business like IV2BUS but already flown (HAT420 landed on 2026-10-05).
    IV0PST: res('IV0PST', 'ivan_novak_908', 'business', [seg('ORD', 'LAX', 'HAT420', '2026-10-05', 687)], ivan, [['credit_card_9080001', 687]], '2026-09-02T11:00:00', [2, 0], 'no'),
    IV1A24: res('IV1A24', 'ivan_novak_908', 'economy', [seg('ORD', 'ATL', 'HAT412', '2026-10-25', 160)], ivan, [['credit_card_9080001', 160]], '2026-10-14T05:00:00', [0, 0], 'no'),
    IV2BUS: res('IV2BUS', 'ivan_novak_908', 'business', [seg('ORD', 'LAX', 'HAT420', '2026-10-28', 690), seg('LAX', 'ORD', 'HAT421', '2026-10-31', 700)], ivan, [['credit_card_9080001', 1290], ['gift_card_9080002', 100]], '2026-09-20T14:00:00', [1, 0], 'no', 'round_trip'),
    IV3INS: res('IV3INS', 'ivan_novak_908', 'economy', [seg('ORD', 'DFW', 'HAT430', '2026-10-27', 170)], ivan, [['credit_card_9080001', 200]], '2026-09-01T08:00:00', [0, 0], 'yes'),
    IV4CXL: res('IV4CXL', 'ivan_novak_908', 'economy', [seg('ORD', 'SEA', 'HAT440', '2026-10-16', 235)], ivan, [['credit_card_9080001', 235]], '2026-09-15T20:00:00', [1, 0], 'no'),
    IV5BEC: res('IV5BEC', 'ivan_novak_908', 'basic_economy', [seg('ORD', 'BOS', 'HAT450', '2026-10-29', 79)], ivan, [['credit_card_9080001', 79]], '2026-09-10T09:00:00', [0, 0], 'no'),
    // T17: outbound for four (move to 10-21), parents' return (booked 7 h ago: insurance still
    // allowed; merge onto the kids' HAT306), kids' basic-economy return (must stay unchanged).
    HPOUT1: res('HPOUT1', 'helen_park_150', 'economy', [seg('JFK', 'SFO', 'HAT301', '2026-10-20', 180)], [...parents, ...kids], [['credit_card_1500001', 720]], '2026-09-25T12:00:00', [4, 0], 'no'),
    HPRET2: res('HPRET2', 'helen_park_150', 'economy', [seg('SFO', 'JFK', 'HAT302', '2026-10-27', 210)], parents, [['credit_card_1500001', 420]], '2026-10-14T08:00:00', [2, 0], 'no'),
    HPRET3: res('HPRET3', 'helen_park_150', 'basic_economy', [seg('SFO', 'JFK', 'HAT306', '2026-10-27', 175)], kids, [['credit_card_1500001', 350]], '2026-09-25T12:05:00', [0, 0], 'no'),
    // Decoy: Helen's own work trip on the same outbound flight HAT301 2026-10-20 (stays put).
    HPSFO4: res('HPSFO4', 'helen_park_150', 'economy', [seg('JFK', 'SFO', 'HAT301', '2026-10-20', 184)], [parents[0]], [['credit_card_1500001', 184]], '2026-10-03T09:30:00', [1, 0], 'no'),
  };
}

/**
 * The decoy of every airline seed task: JSON paths (into the DB) of records that look like the
 * ones the task is about — another reservation of the same customer on the same or a similar
 * route, a namesake customer — which the gold path must leave untouched.
 */
export const AIRLINE_SEED_DECOYS: Record<string, string[]> = {
  T01: ['/reservations/ML7QRS', '/users/mia_lee_7314'],
  T02: ['/reservations/RP5DNV', '/users/raj_patel_6045'],
  T03: ['/reservations/5TRD22', '/reservations/W2GQ8B', '/users/ana_gomez_3907'],
  T15: ['/reservations/IV0PST', '/users/ivan_novak_5526'],
  T17: ['/reservations/HPSFO4', '/users/helen_park_2718'],
};
