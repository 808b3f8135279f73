// The name of a button that acts on one item among several: its own words, then the item's
// ("Remove https://…", "Send test to https://…"), so a screen reader's list of buttons tells
// apart the rows' buttons that look alike.

export const actionOn = (action: string, item: string) => `${action} ${item}`;
