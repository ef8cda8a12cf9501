/** Where the HTTP listener listens unless told otherwise (a leaf: the CLI lists these without loading the listener). */
export const DEFAULT_PORT = 3000;
export const DEFAULT_BIND = '127.0.0.1';
