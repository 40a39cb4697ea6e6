// A small OData `$filter` evaluator: comparisons (eq, ne, gt, ge, lt, le), and/or/not,
// parentheses, and the string functions Azure APIs accept (contains, startswith, endswith,
// substringof). Enough for the Retail Prices API and Resource Manager list filters.

export type FieldValue = string | number | boolean | undefined;
export type FieldReader<Item> = (item: Item, field: string) => FieldValue;
export type FilterPredicate<Item> = (item: Item) => boolean;

export class FilterSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FilterSyntaxError';
  }
}

type Token =
  | { readonly kind: 'identifier'; readonly text: string }
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'symbol'; readonly text: '(' | ')' | ',' };

type Operand = { readonly field: string } | { readonly constant: FieldValue };

interface FilterOptions {
  /** Compare text exactly (the Retail Prices API) or without regard to case (Resource Manager). */
  readonly isCaseSensitive: boolean;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const character = text.charAt(index);
    if (/\s/.test(character)) {
      index += 1;
    } else if (character === '(' || character === ')' || character === ',') {
      tokens.push({ kind: 'symbol', text: character });
      index += 1;
    } else if (character === "'") {
      let value = '';
      index += 1;
      for (;;) {
        if (index >= text.length) throw new FilterSyntaxError('Unterminated string literal in $filter.');
        const next = text.charAt(index);
        if (next === "'") {
          if (text.charAt(index + 1) === "'") {
            value += "'";
            index += 2;
            continue;
          }
          index += 1;
          break;
        }
        value += next;
        index += 1;
      }
      tokens.push({ kind: 'string', text: value });
    } else if (/[-0-9]/.test(character)) {
      const match = /^-?\d+(\.\d+)?/.exec(text.slice(index));
      if (!match) throw new FilterSyntaxError(`Unexpected '${character}' in $filter.`);
      tokens.push({ kind: 'number', value: Number(match[0]) });
      index += match[0].length;
    } else if (/[A-Za-z_$]/.test(character)) {
      const match = /^[A-Za-z_$][A-Za-z0-9_./$]*/.exec(text.slice(index));
      const word = match?.[0] ?? character;
      const lowered = word.toLowerCase();
      if (lowered === 'true' || lowered === 'false')
        tokens.push({ kind: 'boolean', value: lowered === 'true' });
      else tokens.push({ kind: 'identifier', text: word });
      index += word.length;
    } else {
      throw new FilterSyntaxError(`Unexpected '${character}' in $filter.`);
    }
  }
  return tokens;
}

const comparisonOperators = new Set(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const stringFunctions = new Set(['contains', 'startswith', 'endswith', 'substringof']);

class FilterParser<Item> {
  private position = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly readField: FieldReader<Item>,
    private readonly options: FilterOptions,
  ) {}

  parse(): FilterPredicate<Item> {
    const predicate = this.parseOr();
    if (this.position < this.tokens.length)
      throw new FilterSyntaxError('Unexpected text at the end of $filter.');
    return predicate;
  }

  private peekWord(): string | undefined {
    const token = this.tokens[this.position];
    return token?.kind === 'identifier' ? token.text.toLowerCase() : undefined;
  }

  private parseOr(): FilterPredicate<Item> {
    const parts = [this.parseAnd()];
    while (this.peekWord() === 'or') {
      this.position += 1;
      parts.push(this.parseAnd());
    }
    return parts.length === 1 && parts[0] ? parts[0] : (item) => parts.some((part) => part(item));
  }

  private parseAnd(): FilterPredicate<Item> {
    const parts = [this.parseUnary()];
    while (this.peekWord() === 'and') {
      this.position += 1;
      parts.push(this.parseUnary());
    }
    return parts.length === 1 && parts[0] ? parts[0] : (item) => parts.every((part) => part(item));
  }

  private parseUnary(): FilterPredicate<Item> {
    if (this.peekWord() === 'not') {
      this.position += 1;
      const inner = this.parseUnary();
      return (item) => !inner(item);
    }
    const token = this.tokens[this.position];
    if (token?.kind === 'symbol' && token.text === '(') {
      this.position += 1;
      const inner = this.parseOr();
      this.expectSymbol(')');
      return inner;
    }
    const word = this.peekWord();
    const following = this.tokens[this.position + 1];
    if (word && stringFunctions.has(word) && following?.kind === 'symbol' && following.text === '(') {
      return this.parseFunction(word);
    }
    return this.parseComparison();
  }

  private expectSymbol(symbol: '(' | ')' | ','): void {
    const token = this.tokens[this.position];
    if (token?.kind !== 'symbol' || token.text !== symbol)
      throw new FilterSyntaxError(`Expected '${symbol}' in $filter.`);
    this.position += 1;
  }

  private parseOperand(): Operand {
    const token = this.tokens[this.position];
    this.position += 1;
    if (!token) throw new FilterSyntaxError('Unexpected end of $filter.');
    switch (token.kind) {
      case 'identifier':
        return { field: token.text };
      case 'string':
        return { constant: token.text };
      case 'number':
      case 'boolean':
        return { constant: token.value };
      default:
        throw new FilterSyntaxError(`Unexpected '${token.text}' in $filter.`);
    }
  }

  private resolve(operand: Operand, item: Item): FieldValue {
    return 'field' in operand ? this.readField(item, operand.field) : operand.constant;
  }

  private normalize(value: FieldValue): FieldValue {
    return typeof value === 'string' && !this.options.isCaseSensitive ? value.toLowerCase() : value;
  }

  private parseFunction(name: string): FilterPredicate<Item> {
    this.position += 1;
    this.expectSymbol('(');
    const first = this.parseOperand();
    this.expectSymbol(',');
    const second = this.parseOperand();
    this.expectSymbol(')');
    const [haystackOperand, needleOperand] = name === 'substringof' ? [second, first] : [first, second];
    return (item) => {
      const haystack = this.normalize(this.resolve(haystackOperand, item));
      const needle = this.normalize(this.resolve(needleOperand, item));
      if (typeof haystack !== 'string' || typeof needle !== 'string') return false;
      if (name === 'startswith') return haystack.startsWith(needle);
      if (name === 'endswith') return haystack.endsWith(needle);
      return haystack.includes(needle);
    };
  }

  private parseComparison(): FilterPredicate<Item> {
    const left = this.parseOperand();
    const operator = this.peekWord();
    if (!operator || !comparisonOperators.has(operator))
      throw new FilterSyntaxError('Expected a comparison in $filter.');
    this.position += 1;
    const right = this.parseOperand();
    return (item) => {
      const leftValue = this.normalize(this.resolve(left, item));
      const rightValue = this.normalize(this.resolve(right, item));
      switch (operator) {
        case 'eq':
          return leftValue === rightValue;
        case 'ne':
          return leftValue !== rightValue;
        default:
          return compareOrdered(operator, leftValue, rightValue);
      }
    };
  }
}

function compareOrdered(operator: string, left: FieldValue, right: FieldValue): boolean {
  if (left === undefined || right === undefined || typeof left !== typeof right) return false;
  const order = left < right ? -1 : left > right ? 1 : 0;
  if (operator === 'gt') return order > 0;
  if (operator === 'ge') return order >= 0;
  if (operator === 'lt') return order < 0;
  return order <= 0;
}

export function compileFilter<Item>(
  text: string,
  readField: FieldReader<Item>,
  options: FilterOptions,
): FilterPredicate<Item> {
  const tokens = tokenize(text);
  if (tokens.length === 0) return () => true;
  return new FilterParser(tokens, readField, options).parse();
}
