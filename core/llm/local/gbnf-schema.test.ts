/**
 * JSON Schema → node-llama-cpp grammar schema (gbnf-schema.ts): what the grammar keeps, what it
 * drops for lexcase's own validation, and what it refuses (naming the node), on schemas shaped
 * like the ones the systems send (a juror's vote, MAD's claims, a tool's parameters).
 */
import { describe, expect, it } from 'vitest';
import { grammarSchemaFor, GrammarSchemaError } from './gbnf-schema.js';

describe('grammarSchemaFor', () => {
  it('a bounded integer becomes the enum of its values (the grammar keeps it in range); a wide one stays an integer', () => {
    const g = grammarSchemaFor({
      type: 'object',
      properties: { confidence: { type: 'integer', minimum: 1, maximum: 5 }, k: { type: 'integer', minimum: 1, maximum: 100000 } },
      required: ['confidence', 'k'],
      additionalProperties: false,
    });
    expect(g).toEqual({ type: 'object', properties: { confidence: { enum: [1, 2, 3, 4, 5] }, k: { type: 'integer' } } });
  });

  it('anyOf becomes oneOf, nullable types one alternative each, $defs and $ref kept, annotations dropped', () => {
    const g = grammarSchemaFor({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Brief',
      type: 'object',
      properties: {
        claims: { type: 'array', items: { $ref: '#/$defs/claim' }, maxItems: 3 },
        k: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null },
        note: { type: ['string', 'null'], maxLength: 40 },
      },
      $defs: { claim: { type: 'object', properties: { text: { type: 'string' }, cites: { type: 'array', items: { type: 'string' } } } } },
    });
    expect(g).toEqual({
      type: 'object',
      properties: {
        claims: { type: 'array', items: { $ref: '#/$defs/claim' }, maxItems: 3 },
        k: { oneOf: [{ type: 'integer' }, { type: 'null' }] },
        note: { oneOf: [{ type: 'string', maxLength: 40 }, { type: 'null' }] },
      },
      $defs: { claim: { type: 'object', properties: { text: { type: 'string' }, cites: { type: 'array', items: { type: 'string' } } } } },
    });
  });

  it('refuses what a grammar cannot take, naming the node: allOf, an empty enum, a $ref outside $defs, a node that says nothing', () => {
    const bad: [unknown, RegExp][] = [
      [{ type: 'object', properties: { a: { allOf: [{ type: 'string' }] } } }, /\(root\)\.a: keyword "allOf"/],
      [{ type: 'object', properties: { vote: { enum: [] } } }, /\(root\)\.vote: an empty enum/],
      [{ type: 'object', properties: { p: { $ref: '#/definitions/p' } } }, /\(root\)\.p: \$ref #\/definitions\/p/],
      [{ type: 'object', properties: { x: {} } }, /\(root\)\.x: says nothing about the value/],
    ];
    for (const [schema, message] of bad) {
      expect(() => grammarSchemaFor(schema)).toThrow(GrammarSchemaError);
      expect(() => grammarSchemaFor(schema)).toThrow(message);
    }
  });
});
