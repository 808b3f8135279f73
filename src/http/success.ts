/** The body of a successful contact or custom-attribute call, as the contract shapes it. */
export const success = <T>(data: T) => ({ message: 'Success', data });
