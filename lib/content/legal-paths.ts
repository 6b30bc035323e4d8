// The path of the privacy policy (the legalPage with slug "privacidade"), which the demo form's
// notice links to. The bundled dataset and the Studio's legal links use the same path.
export const PRIVACY_POLICY_PATH = '/privacidade'
