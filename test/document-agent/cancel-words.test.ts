/**
 * Issue 27 §1: "stop" (or another cancel word) always ends what the document
 * agent waits on: typed at its Proceed / Cancel question or its two choices of
 * 4d, it cancels the pending change (no model call, nothing changed) instead
 * of being read as a new request.
 */
import { describe, expect, it } from 'vitest';
import { artifactOf, useDocumentAgentStore } from '../helpers/document-agent.js';

const { agent } = useDocumentAgentStore();

const BUDGET = '# Budget\n\n## Budget\nRent: 1000\n\n## Notes\nReview monthly.\n';

describe('a cancel word ends a pending change', () => {
  for (const words of ['stop', 'Never mind.', 'please stop']) {
    it(`"${words}" at the confirmation cancels it, without a model call`, async () => {
      const h = agent({
        decide: [
          (call) => ({
            should_edit: true,
            document_id: Number(/id: (\d+)\nname: Budget/.exec(call.prompt)![1]),
            pending_confirmation: true,
            confirmation_prompt: "I'll remove the Budget section. Should I proceed?",
            intent_statement: "I'll remove the Budget section.",
          }),
        ],
      });
      const project = await h.project();
      await h.document(project.id, 'Budget', BUDGET);
      const chat = await h.chat(project.id);
      const asked = await chat.send('Get rid of the budget figures');
      expect(asked.state).toBe('awaiting_confirmation');
      const cancelled = await chat.send(words);
      expect(cancelled.message).toBe("Cancelled: nothing was changed (I'll remove the Budget section).");
      expect(artifactOf(cancelled)).toMatchObject({ modelCalls: 0, outcome: { kind: 'cancelled' } });
      expect(h.model.calls.map((c) => c.purpose)).toEqual(['decide']);
      expect((await h.documents(project.id))[0]).toMatchObject({ content: BUDGET, version: 1 });
    });
  }
});
