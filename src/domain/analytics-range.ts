// The longest range of days one analytics request may ask for: here, for the domain and the
// console's date fields alike.

export const MAX_DAYS = 366;
