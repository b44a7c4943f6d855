import { z } from 'zod';
import { operations } from '../../api/operations';
import { APPLICABLE_OPERATIONS } from '../../shared/domain/agent-actions/operations';
import { CHAT_TOOLS } from '../../shared/domain/chat/tools';

/**
 * The worker applies an approved agent action through shared/domain/agent-actions (it may not import
 * api/): each operation there must be the declared one, by name, scopes and input, so that what an
 * agent proposes is exactly what a person's request of that name does.
 */
describe('operations an agent may propose', () => {
  const declared = new Map(operations.map((o) => [o.name, o]));

  it.each([...APPLICABLE_OPERATIONS.values()].map((o) => [o.name, o]))(
    '%s is the declared operation, with its scopes and input',
    (name, op) => {
      const declaration = declared.get(name);
      expect(declaration).toBeDefined();
      expect(declaration!.kind).toBe('mutation');
      expect([...op.scopes]).toEqual([...declaration!.scopes]);
      const schema = (s: z.ZodType | undefined) => z.toJSONSchema(s ?? z.object({}), { io: 'input', unrepresentable: 'any' });
      expect(schema(op.input)).toEqual(schema(declaration!.input));
    },
  );

  it('every write tool proposes one of them and needs at least its scopes; read tools say they are read-only', () => {
    const writes = CHAT_TOOLS.filter((t) => !t.annotations.readOnlyHint);
    expect(writes.length).toBeGreaterThanOrEqual(8);
    for (const tool of CHAT_TOOLS) expect(typeof tool.annotations.openWorldHint).toBe('boolean');
    for (const tool of writes) expect(tool.annotations.destructiveHint).toEqual(expect.any(Boolean));
    // Each write tool's scopes cover an applicable operation's scopes.
    for (const tool of writes)
      expect([...APPLICABLE_OPERATIONS.values()].some((o) => o.scopes.every((s) => tool.scopes.includes(s)))).toBe(true);
  });
});
