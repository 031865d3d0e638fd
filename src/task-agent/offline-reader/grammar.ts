import { ensured, STATEMENTS, TOOLS } from './asides.js';
import { createEdge, createNode, deleteEdge, deleteNode, linkNodes, UPDATES } from './changes.js';
import { cypher, FINDS } from './finds.js';
import type { Assign, Mention, Neighbours, Written } from './phrases.js';
import { Cursor, type Token } from './tokens.js';

/**
 * One clause, read as one command (or as a statement about what was asked
 * before: "The ticket should be closed."). Every rule must account for the
 * whole clause; a clause no rule reads is not guessed at.
 */
export type Command =
  | { kind: 'createNode'; label: string; key: string; props: Assign[] }
  | { kind: 'createEdge'; type: string; from: Mention; to: Mention; props: Assign[] }
  | { kind: 'update'; target: Mention; set: Assign[]; unset: string[] }
  | { kind: 'deleteNode'; target: Mention; detach: boolean }
  | { kind: 'deleteEdge'; type: string; from: Mention; to: Mention }
  | { kind: 'findNodes'; label: string | null; where: Assign[]; limit: number | null; neighbours: Neighbours | null }
  | { kind: 'findNode'; target: Mention; neighbours: Neighbours | null }
  | { kind: 'cypher'; query: string }
  /** A tool asked for by name, and the words saying what it should do. */
  | { kind: 'tool'; name: string; task: readonly Token[] }
  /** A property of a node asked for in passing: "its status must be closed" (`it` when mention is null). */
  | { kind: 'statement'; about: Mention; props: Assign[]; modal: boolean }
  /** "The ticket should be closed" / "Status should be closed": the word is a label or a property, decided by what was read before. */
  | { kind: 'headStatement'; word: string; value: Written; modal: boolean };

export type Rule = (c: Cursor) => Command | null;

/** In order: the first rule that reads the whole clause says what it means. */
const RULES: Rule[] = [createEdge, linkNodes, createNode, ...UPDATES, deleteEdge, deleteNode, ...FINDS, cypher, ...TOOLS, ...STATEMENTS, ensured];

/** The command a clause says, or null when no rule reads all of it. */
export function readClause(tokens: readonly Token[]): Command | null {
  const c = new Cursor(tokens);
  for (const rule of RULES) {
    const command = c.attempt((c) => {
      const read = rule(c);
      return read && c.done ? read : null;
    });
    if (command) return command;
  }
  return null;
}
