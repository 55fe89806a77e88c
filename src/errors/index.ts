export { isRvportError, isRvportErrorNamed, RvportError, type RvportErrorOptions } from './RvportError.ts';
