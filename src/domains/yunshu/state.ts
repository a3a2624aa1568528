/** State of the yunshu mock: the writes the agent made (the recorded outputs are canned). */
export interface YunshuState {
  changes: { tool: 'change_flight' | 'change_seat'; confirmation_code: string; value: string }[];
}
