/**
 * Scripted browser steps (types only): how the oracle of a web task works the pages.
 */
/**
 * One step of a scripted browser agent (the oracle of a web task), addressing elements as a person
 * reads the page: by role and accessible name in the latest snapshot, never by a ref known in
 * advance. `say` talks to the customer; `stop` ends the conversation.
 */
export type UiStep =
  | { do: 'click'; role: string; name: string; exact?: boolean }
  | { do: 'type'; role: string; name: string; text: string; submit?: boolean; exact?: boolean }
  | { do: 'select'; role: string; name: string; value: string; exact?: boolean }
  /** Sets a checkbox to `checked`: a click when it is in the other state, else only a look. */
  | { do: 'check'; name: string; checked: boolean; exact?: boolean }
  | { do: 'press'; key: string }
  | { do: 'navigate'; url: string }
  | { do: 'snapshot' }
  | { do: 'say'; text: string }
  | { do: 'stop' };
