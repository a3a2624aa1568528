/**
 * tau2's `calculate` tool: `str(round(float(eval(expression)), 2))` restricted to the
 * characters `0-9 + - * / ( ) .` and space — reimplemented with Python's arithmetic rules
 * (arbitrary-precision ints, true division `/`, floor division `//`, power `**` binding tighter
 * than unary minus, `round` to 2 places with ties to even on the exact binary value) and
 * Python's `repr` of the float result (`4.0`, `3.33`, `1e+16`). Domain-agnostic: every tau2
 * domain (airline, retail, telecom) exposes the same tool, and retail's write tools use
 * {@link pyRound2} for tau2's `round(balance, 2)`.
 */
import { ToolError } from '../../spec/tool.js';
import { pyFloatRepr } from '../../util/pyjson.js';

/** A Python number: int (bigint) or float (number). */
type PyNum = bigint | number;

const SYNTAX = 'invalid syntax (<string>, line 1)';

function tokenize(expr: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i];
    if (c === ' ') {
      i++;
      continue;
    }
    const num = /^(\d+\.?\d*|\.\d+)/.exec(expr.slice(i));
    if (num) {
      out.push(num[1]);
      i += num[1].length;
      continue;
    }
    if (expr.startsWith('**', i) || expr.startsWith('//', i)) {
      out.push(expr.slice(i, i + 2));
      i += 2;
      continue;
    }
    out.push(c);
    i++;
  }
  return out;
}

const isFloat = (x: PyNum): x is number => typeof x === 'number';
const toFloat = (x: PyNum): number => {
  if (isFloat(x)) return x;
  const f = Number(x);
  if (!Number.isFinite(f)) throw new ToolError('int too large to convert to float');
  return f;
};

function literal(tok: string): PyNum {
  if (tok.includes('.')) return Number(tok);
  if (/^0\d*[1-9]/.test(tok)) {
    throw new ToolError('leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)');
  }
  return BigInt(tok);
}

function floorDiv(a: PyNum, b: PyNum): PyNum {
  if (!isFloat(a) && !isFloat(b)) {
    if (b === 0n) throw new ToolError('integer division or modulo by zero');
    const q = a / b;
    return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
  }
  const x = toFloat(a);
  const y = toFloat(b);
  if (y === 0) throw new ToolError('float floor division by zero');
  return Math.floor(x / y);
}

function power(a: PyNum, b: PyNum): PyNum {
  if (!isFloat(a) && !isFloat(b)) {
    if (b >= 0n) {
      if (b > 100_000n) throw new ToolError('exponent too large');
      return a ** b;
    }
    if (a === 0n) throw new ToolError('0.0 cannot be raised to a negative power');
    return toFloat(a) ** toFloat(b);
  }
  const x = toFloat(a);
  const y = toFloat(b);
  if (x === 0 && y < 0) throw new ToolError('0.0 cannot be raised to a negative power');
  if (x < 0 && !Number.isInteger(y)) throw new ToolError("float() argument must be a string or a real number, not 'complex'");
  const r = x ** y;
  if (!Number.isFinite(r)) throw new ToolError("(34, 'Numerical result out of range')");
  return r;
}

function binary(op: string, a: PyNum, b: PyNum): PyNum {
  if (op === '//') return floorDiv(a, b);
  if (op === '**') return power(a, b);
  if (op === '/') {
    if (!isFloat(a) && !isFloat(b)) {
      if (b === 0n) throw new ToolError('division by zero');
      return toFloat(a) / toFloat(b);
    }
    if (toFloat(b) === 0) throw new ToolError('float division by zero');
    return toFloat(a) / toFloat(b);
  }
  if (!isFloat(a) && !isFloat(b)) return op === '+' ? a + b : op === '-' ? a - b : a * b;
  const x = toFloat(a);
  const y = toFloat(b);
  return op === '+' ? x + y : op === '-' ? x - y : x * y;
}

/** Evaluates the tokens with Python's grammar for these operators. */
function evaluate(tokens: string[]): PyNum {
  let pos = 0;
  const peek = () => tokens[pos];
  const expr = (): PyNum => {
    let v = term();
    while (peek() === '+' || peek() === '-') {
      const op = tokens[pos++];
      v = binary(op, v, term());
    }
    return v;
  };
  const term = (): PyNum => {
    let v = unary();
    while (peek() === '*' || peek() === '/' || peek() === '//') {
      const op = tokens[pos++];
      v = binary(op, v, unary());
    }
    return v;
  };
  const unary = (): PyNum => {
    if (peek() === '-' || peek() === '+') {
      const op = tokens[pos++];
      const v = unary();
      if (op === '+') return v;
      return isFloat(v) ? -v : -v;
    }
    return pow();
  };
  const pow = (): PyNum => {
    const base = atom();
    if (peek() === '**') {
      pos++;
      return binary('**', base, unary());
    }
    return base;
  };
  const atom = (): PyNum => {
    const t = tokens[pos++];
    if (t === undefined) throw new ToolError(SYNTAX);
    if (t === '(') {
      if (peek() === ')') throw new ToolError(SYNTAX);
      const v = expr();
      if (tokens[pos++] !== ')') throw new ToolError(SYNTAX);
      return v;
    }
    if (/^[\d.]/.test(t)) return literal(t);
    throw new ToolError(SYNTAX);
  };
  const v = expr();
  if (pos !== tokens.length) throw new ToolError(SYNTAX);
  return v;
}

/** Whether `x` lies exactly halfway between two multiples of 0.01 (exact binary value). */
function isExactHalfCent(x: number): boolean {
  // x = m / 2^k exactly; x*200 = m*200 / 2^k must be an odd integer.
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(x));
  const bits = buf.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let exp: number;
  if (expBits === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = expBits - 1075;
  }
  let num = mant * 200n;
  if (exp >= 0) return false;
  const den = 1n << BigInt(-exp);
  if (num % den !== 0n) return false;
  num /= den;
  return num % 2n === 1n;
}

/** Python's `round(x, 2)` for a float. */
export function pyRound2(x: number): number {
  if (!Number.isFinite(x) || Number.isInteger(x)) return x;
  let s = Math.abs(x).toFixed(2); // exact value rounded, ties away from zero
  if (isExactHalfCent(x)) {
    const cents = BigInt(s.replace('.', ''));
    if (cents % 2n === 1n) {
      const even = cents - 1n;
      const str = even.toString().padStart(3, '0');
      s = `${str.slice(0, -2)}.${str.slice(-2)}`;
    }
  }
  const v = Number(s);
  return x < 0 ? -v : v;
}

/**
 * tau2's `calculate(expression)`: the result as Python prints `round(float(value), 2)`.
 * Errors: `Invalid characters in expression`, Python's syntax and arithmetic messages.
 */
export function pyCalculate(expression: string): string {
  for (const ch of expression) if (!'0123456789+-*/(). '.includes(ch)) throw new ToolError('Invalid characters in expression');
  const value = evaluate(tokenize(expression));
  return pyFloatRepr(pyRound2(toFloat(value)));
}
