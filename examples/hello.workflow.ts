// A small workflow: a shell command, then a counting loop. Run it with
//   rvport workflow run examples/hello.workflow.ts
import { CommandNode, defineWorkflow, END, FunctionNode } from 'rvport';

export default defineWorkflow({
  id: 'hello',
  initialContext: { n: 0 },
  nodes: {
    greet: CommandNode({ command: 'echo hello from $(uname -m)', then: 'count' }),
    count: FunctionNode({
      run: async (state) => ({ context: { n: state.context.n + 1 } }),
      then: (state) => (state.context.n < 3 ? 'count' : END),
      targets: ['count', END],
    }),
  },
});
