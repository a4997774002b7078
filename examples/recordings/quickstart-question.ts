/** The question the bundled quickstart recording answers (the demo replays it for any prompt). */
export const quickstartQuestion = 'In three short sentences: why stream LLM replies?';
