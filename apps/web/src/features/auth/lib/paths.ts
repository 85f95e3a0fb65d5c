/** The bad-session page: `/error/session?error_code=BAD_SESSION`. */
export const SESSION_ERROR_PATH = '/error/session';
/** The flow-error page: `/error?id=<flow error id>`. */
export const FLOW_ERROR_PATH = '/error';
