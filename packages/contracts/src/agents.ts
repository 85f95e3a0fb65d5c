/** The nil agent id: a resource with this agent is not agent-linked (spec core §3). */
export const NIL_AGENT_ID = '00000000-0000-0000-0000-000000000000';
