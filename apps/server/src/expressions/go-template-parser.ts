/**
 * Lexer and parser for the subset of Go's text/template syntax that resource specs use:
 * actions with pipelines, fields, variables, literals, parentheses, `if`/`else if`/`else`,
 * `range` (with `break`/`continue`), `with`, `define`/`template`, comments and trim markers.
 */

export class TemplateSyntaxError extends Error {
  override readonly name = 'TemplateSyntaxError';
}

export type Operand =
  | { kind: 'dot' }
  | { kind: 'field'; path: string[] }
  | { kind: 'variable'; name: string; path: string[] }
  | { kind: 'function'; name: string }
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'group'; pipeline: Pipeline; path: string[] };

export interface Command {
  operands: Operand[];
}

export interface Pipeline {
  declare?: { names: string[]; assign: boolean };
  commands: Command[];
}

export type TemplateNode =
  | { kind: 'text'; text: string }
  | { kind: 'action'; pipeline: Pipeline }
  | { kind: 'if'; pipeline: Pipeline; then: TemplateNode[]; otherwise: TemplateNode[] }
  | { kind: 'with'; pipeline: Pipeline; then: TemplateNode[]; otherwise: TemplateNode[] }
  | { kind: 'range'; pipeline: Pipeline; then: TemplateNode[]; otherwise: TemplateNode[] }
  | { kind: 'template'; name: string; pipeline?: Pipeline }
  | { kind: 'break' }
  | { kind: 'continue' };

export interface ParsedTemplate {
  root: TemplateNode[];
  defines: Map<string, TemplateNode[]>;
}

type Token =
  | { type: 'dot'; spaced: boolean }
  | { type: 'field'; path: string[]; spaced: boolean }
  | { type: 'variable'; name: string; path: string[]; spaced: boolean }
  | { type: 'identifier'; name: string; spaced: boolean }
  | { type: 'string'; value: string; spaced: boolean }
  | { type: 'number'; value: number; spaced: boolean }
  | { type: 'punct'; value: '(' | ')' | '|' | ',' | ':=' | '='; spaced: boolean };

interface RawAction {
  tokens: Token[];
  position: number;
}

type Piece = { kind: 'text'; text: string } | { kind: 'action'; action: RawAction };

const WHITESPACE = /[ \t\r\n]/;
const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[A-Za-z0-9_]/;

function lineOf(source: string, position: number): number {
  let line = 1;
  for (let index = 0; index < position && index < source.length; index += 1)
    if (source[index] === '\n') line += 1;
  return line;
}

function readFieldChain(source: string, start: number): { path: string[]; end: number } {
  const path: string[] = [];
  let index = start;
  while (source[index] === '.' && IDENTIFIER_START.test(source[index + 1] ?? '')) {
    let end = index + 1;
    while (end < source.length && IDENTIFIER_PART.test(source[end])) end += 1;
    path.push(source.slice(index + 1, end));
    index = end;
  }
  return { path, end: index };
}

function readQuoted(source: string, start: number): { value: string; end: number } {
  const quote = source[start];
  let index = start + 1;
  if (quote === '`') {
    const close = source.indexOf('`', index);
    if (close === -1)
      throw new TemplateSyntaxError(`unterminated raw string at line ${lineOf(source, start)}`);
    return { value: source.slice(index, close), end: close + 1 };
  }
  let value = '';
  while (index < source.length) {
    const char = source[index];
    if (char === '\n') break;
    if (char === quote) return { value, end: index + 1 };
    if (char === '\\') {
      const next = source[index + 1];
      const escapes: Record<string, string> = {
        n: '\n',
        t: '\t',
        r: '\r',
        '\\': '\\',
        '"': '"',
        "'": "'",
        a: '\x07',
        b: '\b',
        f: '\f',
        v: '\v',
        '0': '\0',
      };
      if (next === 'u' || next === 'x') {
        const length = next === 'u' ? 4 : 2;
        const hex = source.slice(index + 2, index + 2 + length);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== length) {
          throw new TemplateSyntaxError(`invalid escape in string at line ${lineOf(source, index)}`);
        }
        value += String.fromCharCode(parseInt(hex, 16));
        index += 2 + length;
        continue;
      }
      if (next === undefined || !(next in escapes)) {
        throw new TemplateSyntaxError(`invalid escape in string at line ${lineOf(source, index)}`);
      }
      value += escapes[next];
      index += 2;
      continue;
    }
    value += char;
    index += 1;
  }
  throw new TemplateSyntaxError(`unterminated quoted string at line ${lineOf(source, start)}`);
}

/** Tokenises one action starting after `{{`; returns the tokens and where the action's `}}` ends. */
function lexAction(source: string, start: number): { tokens: Token[]; end: number; trimRight: boolean } {
  const tokens: Token[] = [];
  let index = start;
  let spaced = true;
  for (;;) {
    if (index >= source.length)
      throw new TemplateSyntaxError(`unclosed action at line ${lineOf(source, start)}`);
    const char = source[index];
    if (WHITESPACE.test(char)) {
      // " -}}" trims the text that follows the action.
      let probe = index;
      while (probe < source.length && WHITESPACE.test(source[probe])) probe += 1;
      if (source.startsWith('-}}', probe)) return { tokens, end: probe + 3, trimRight: true };
      index = probe;
      spaced = true;
      continue;
    }
    if (source.startsWith('}}', index)) return { tokens, end: index + 2, trimRight: false };
    if (char === '"' || char === '`' || char === "'") {
      const { value, end } = readQuoted(source, index);
      if (char === "'") {
        const codePoint = value.codePointAt(0);
        if (codePoint === undefined || [...value].length !== 1) {
          throw new TemplateSyntaxError(`invalid character constant at line ${lineOf(source, index)}`);
        }
        tokens.push({ type: 'number', value: codePoint, spaced });
      } else {
        tokens.push({ type: 'string', value, spaced });
      }
      index = end;
    } else if (char === '.') {
      const { path, end } = readFieldChain(source, index);
      if (path.length === 0) {
        if (/[0-9]/.test(source[index + 1] ?? '')) {
          const match = /^\.\d+(?:[eE][+-]?\d+)?/.exec(source.slice(index));
          tokens.push({ type: 'number', value: Number(match?.[0]), spaced });
          index += match?.[0].length ?? 1;
        } else {
          tokens.push({ type: 'dot', spaced });
          index += 1;
        }
      } else {
        tokens.push({ type: 'field', path, spaced });
        index = end;
      }
    } else if (char === '$') {
      let end = index + 1;
      while (end < source.length && IDENTIFIER_PART.test(source[end])) end += 1;
      const name = source.slice(index + 1, end);
      const chain = readFieldChain(source, end);
      tokens.push({ type: 'variable', name, path: chain.path, spaced });
      index = chain.end;
    } else if (
      /[0-9]/.test(char) ||
      ((char === '-' || char === '+') && /[0-9.]/.test(source[index + 1] ?? ''))
    ) {
      const match =
        /^[+-]?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*)?\.?\d*(?:[eE][+-]?\d+)?)/.exec(
          source.slice(index),
        );
      const text = match?.[0] ?? '';
      const cleaned = text.replace(/_/g, '');
      const value = /^[+-]?0[xXbBoO]/.test(cleaned)
        ? (cleaned.startsWith('-') ? -1 : 1) * Number(cleaned.replace(/^[+-]/, ''))
        : Number(cleaned);
      if (text === '' || Number.isNaN(value)) {
        throw new TemplateSyntaxError(`bad number syntax at line ${lineOf(source, index)}`);
      }
      tokens.push({ type: 'number', value, spaced });
      index += text.length;
    } else if (IDENTIFIER_START.test(char)) {
      let end = index + 1;
      // Namespaced helpers such as strings.ToUpper are single identifiers.
      while (
        end < source.length &&
        (IDENTIFIER_PART.test(source[end]) ||
          (source[end] === '.' && IDENTIFIER_START.test(source[end + 1] ?? '')))
      ) {
        end += 1;
      }
      tokens.push({ type: 'identifier', name: source.slice(index, end), spaced });
      index = end;
    } else if (source.startsWith(':=', index)) {
      tokens.push({ type: 'punct', value: ':=', spaced });
      index += 2;
    } else if (char === '(' || char === ')' || char === '|' || char === ',' || char === '=') {
      tokens.push({ type: 'punct', value: char, spaced });
      index += 1;
    } else {
      throw new TemplateSyntaxError(`unexpected "${char}" in action at line ${lineOf(source, index)}`);
    }
    spaced = false;
  }
}

function lex(source: string): Piece[] {
  const pieces: Piece[] = [];
  let index = 0;
  let trimNextText = false;
  while (index <= source.length) {
    const open = source.indexOf('{{', index);
    let text = open === -1 ? source.slice(index) : source.slice(index, open);
    if (trimNextText) text = text.replace(/^[ \t\r\n]+/, '');
    trimNextText = false;
    if (open === -1) {
      if (text !== '') pieces.push({ kind: 'text', text });
      break;
    }
    let cursor = open + 2;
    if (source[cursor] === '-' && WHITESPACE.test(source[cursor + 1] ?? '')) {
      text = text.replace(/[ \t\r\n]+$/, '');
      cursor += 1;
    }
    if (text !== '') pieces.push({ kind: 'text', text });
    let probe = cursor;
    while (probe < source.length && WHITESPACE.test(source[probe])) probe += 1;
    if (source.startsWith('/*', probe)) {
      const close = source.indexOf('*/', probe + 2);
      if (close === -1) throw new TemplateSyntaxError(`unclosed comment at line ${lineOf(source, open)}`);
      let after = close + 2;
      while (after < source.length && WHITESPACE.test(source[after])) after += 1;
      if (source.startsWith('-}}', after) && after > close + 2) {
        trimNextText = true;
        index = after + 3;
      } else if (source.startsWith('}}', close + 2)) {
        index = close + 4;
      } else {
        throw new TemplateSyntaxError(
          `comment ends before closing delimiter at line ${lineOf(source, open)}`,
        );
      }
      continue;
    }
    const { tokens, end, trimRight } = lexAction(source, cursor);
    pieces.push({ kind: 'action', action: { tokens, position: open } });
    trimNextText = trimRight;
    index = end;
  }
  return pieces;
}

class ActionParser {
  private index = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly describe: () => string,
  ) {}

  fail(message: string): never {
    throw new TemplateSyntaxError(`${message} ${this.describe()}`);
  }

  peek(): Token | undefined {
    return this.tokens[this.index];
  }

  next(): Token | undefined {
    const token = this.tokens[this.index];
    this.index += 1;
    return token;
  }

  done(): boolean {
    return this.index >= this.tokens.length;
  }

  expectEnd(): void {
    if (!this.done()) this.fail('unexpected token');
  }

  pipeline(allowDeclaration: boolean, stopAtParen = false): Pipeline {
    const pipeline: Pipeline = { commands: [] };
    if (allowDeclaration) this.declaration(pipeline);
    for (;;) {
      const command = this.command(stopAtParen);
      pipeline.commands.push(command);
      const token = this.peek();
      if (token?.type === 'punct' && token.value === '|') {
        this.next();
        continue;
      }
      break;
    }
    return pipeline;
  }

  private declaration(pipeline: Pipeline): void {
    const start = this.index;
    const names: string[] = [];
    for (;;) {
      const token = this.peek();
      if (token?.type !== 'variable' || token.path.length > 0) break;
      names.push(token.name);
      this.next();
      const separator = this.peek();
      if (separator?.type === 'punct' && separator.value === ',' && names.length < 2) {
        this.next();
        continue;
      }
      if (separator?.type === 'punct' && (separator.value === ':=' || separator.value === '=')) {
        this.next();
        pipeline.declare = { names, assign: separator.value === '=' };
        return;
      }
      break;
    }
    this.index = start;
  }

  private command(stopAtParen: boolean): Command {
    const operands: Operand[] = [];
    for (;;) {
      const token = this.peek();
      if (token === undefined) break;
      if (token.type === 'punct') {
        if (token.value === '|') break;
        if (token.value === ')') {
          if (stopAtParen) break;
          this.fail('unexpected ")"');
        }
        if (token.value !== '(') this.fail(`unexpected "${token.value}"`);
      }
      operands.push(this.operand());
    }
    if (operands.length === 0) this.fail('missing value for command');
    return { operands };
  }

  private operand(): Operand {
    const token = this.next();
    if (token === undefined) return this.fail('missing operand');
    switch (token.type) {
      case 'dot':
        return { kind: 'dot' };
      case 'field':
        return { kind: 'field', path: token.path };
      case 'variable':
        return { kind: 'variable', name: token.name, path: token.path };
      case 'string':
        return { kind: 'literal', value: token.value };
      case 'number':
        return { kind: 'literal', value: token.value };
      case 'identifier':
        if (token.name === 'true' || token.name === 'false')
          return { kind: 'literal', value: token.name === 'true' };
        if (token.name === 'nil') return { kind: 'literal', value: null };
        if (
          ['if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', 'continue'].includes(
            token.name,
          )
        ) {
          return this.fail(`unexpected keyword "${token.name}"`);
        }
        return { kind: 'function', name: token.name };
      case 'punct': {
        if (token.value !== '(') return this.fail(`unexpected "${token.value}"`);
        const pipeline = this.pipeline(false, true);
        const close = this.next();
        if (close?.type !== 'punct' || close.value !== ')') this.fail('unclosed left paren');
        const chained = this.peek();
        if (chained?.type === 'field' && !chained.spaced) {
          this.next();
          return { kind: 'group', pipeline, path: chained.path };
        }
        return { kind: 'group', pipeline, path: [] };
      }
    }
  }
}

interface Frame {
  keyword: 'root' | 'if' | 'with' | 'range' | 'define';
  nodes: TemplateNode[];
  onElse?: (pipeline: Pipeline | undefined, keyword: 'if' | 'with' | undefined) => void;
  close: () => void;
}

/** Parses template source into an AST; throws TemplateSyntaxError with the line of the problem. */
export function parseTemplate(source: string): ParsedTemplate {
  const pieces = lex(source);
  const defines = new Map<string, TemplateNode[]>();
  const root: TemplateNode[] = [];
  const stack: Frame[] = [{ keyword: 'root', nodes: root, close: () => undefined }];
  let rangeDepth = 0;

  const current = (): Frame => stack[stack.length - 1];

  for (const piece of pieces) {
    if (piece.kind === 'text') {
      current().nodes.push({ kind: 'text', text: piece.text });
      continue;
    }
    const { tokens, position } = piece.action;
    const describe = () => `at line ${lineOf(source, position)}`;
    const parser = new ActionParser(tokens, describe);
    const first = tokens[0];
    if (first === undefined) throw new TemplateSyntaxError(`missing value for command ${describe()}`);
    const keyword = first.type === 'identifier' ? first.name : undefined;

    const openBlock = (kind: 'if' | 'with' | 'range') => {
      parser.next();
      const pipeline = parser.pipeline(kind === 'range' || kind === 'with' || kind === 'if');
      parser.expectEnd();
      const node = { kind, pipeline, then: [] as TemplateNode[], otherwise: [] as TemplateNode[] };
      current().nodes.push(node);
      if (kind === 'range') rangeDepth += 1;
      let target = node.then;
      let elseSeen = false;
      // `else if` / `else with` nest a new block in the else branch that the same `end` closes.
      const chained: Array<{ then: TemplateNode[]; otherwise: TemplateNode[] }> = [node];
      const frame: Frame = {
        keyword: kind,
        nodes: target,
        onElse: (elsePipeline, elseKeyword) => {
          if (elseSeen) throw new TemplateSyntaxError(`expected end; found else ${describe()}`);
          const last = chained[chained.length - 1];
          if (elsePipeline && elseKeyword) {
            const nested = {
              kind: elseKeyword,
              pipeline: elsePipeline,
              then: [] as TemplateNode[],
              otherwise: [] as TemplateNode[],
            };
            last.otherwise.push(nested);
            chained.push(nested);
            target = nested.then;
          } else {
            elseSeen = true;
            target = last.otherwise;
          }
          frame.nodes = target;
        },
        close: () => {
          if (kind === 'range') rangeDepth -= 1;
        },
      };
      stack.push(frame);
    };

    switch (keyword) {
      case 'if':
      case 'with':
      case 'range':
        openBlock(keyword);
        break;
      case 'else': {
        parser.next();
        const frame = current();
        if (!frame.onElse) throw new TemplateSyntaxError(`unexpected {{else}} ${describe()}`);
        const next = parser.peek();
        if (next?.type === 'identifier' && (next.name === 'if' || next.name === 'with')) {
          if (next.name !== frame.keyword) {
            throw new TemplateSyntaxError(`{{else ${next.name}}} inside {{${frame.keyword}}} ${describe()}`);
          }
          parser.next();
          const pipeline = parser.pipeline(true);
          parser.expectEnd();
          frame.onElse(pipeline, next.name);
        } else {
          parser.expectEnd();
          frame.onElse(undefined, undefined);
        }
        break;
      }
      case 'end': {
        parser.next();
        parser.expectEnd();
        if (stack.length === 1) throw new TemplateSyntaxError(`unexpected {{end}} ${describe()}`);
        const frame = stack.pop();
        frame?.close();
        break;
      }
      case 'define': {
        parser.next();
        const name = parser.next();
        if (name?.type !== 'string')
          throw new TemplateSyntaxError(`define needs a quoted name ${describe()}`);
        parser.expectEnd();
        if (stack.length !== 1)
          throw new TemplateSyntaxError(`define must be at the top level ${describe()}`);
        const nodes: TemplateNode[] = [];
        defines.set(name.value, nodes);
        stack.push({ keyword: 'define', nodes, close: () => undefined });
        break;
      }
      case 'template': {
        parser.next();
        const name = parser.next();
        if (name?.type !== 'string')
          throw new TemplateSyntaxError(`template needs a quoted name ${describe()}`);
        const pipeline = parser.done() ? undefined : parser.pipeline(false);
        parser.expectEnd();
        current().nodes.push({ kind: 'template', name: name.value, pipeline });
        break;
      }
      case 'break':
      case 'continue':
        parser.next();
        parser.expectEnd();
        if (rangeDepth === 0) throw new TemplateSyntaxError(`{{${keyword}}} outside {{range}} ${describe()}`);
        current().nodes.push({ kind: keyword });
        break;
      case 'block':
        throw new TemplateSyntaxError(`{{block}} is not supported ${describe()}`);
      default: {
        const pipeline = parser.pipeline(true);
        parser.expectEnd();
        current().nodes.push({ kind: 'action', pipeline });
      }
    }
  }
  if (stack.length > 1) {
    throw new TemplateSyntaxError(`unexpected EOF: {{${current().keyword}}} has no matching {{end}}`);
  }
  return { root, defines };
}
