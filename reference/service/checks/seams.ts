// The seams of this part of the service: its rules as data and functions, read where they apply, so a
// plugin from outside (REFERENCE_PLUGINS) may change one before the service's own plugins are registered.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as the part's rules become data
export interface CheckSeams {}

export const checkSeams = (): CheckSeams => ({});
