// The public API of the rvport package.
export {};
