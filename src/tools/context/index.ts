/** get_code_context's room: the tool, its ranking by a question's words, and the doc comments it ranks by. */
export { createCodeContextTool } from './code-context.js';
