/**
 * Runtime configuration, fetched from /admin/config.json when the panel starts: the same build
 * runs everywhere, and the API's URL is decided where it is served (the local gateway answers
 * with its own origin; on AWS, CDK writes the file next to the app at deploy time).
 */
export interface PanelConfig {
  /** Base URL of the API, without a trailing slash; empty means "this origin". */
  apiUrl: string;
}

export async function loadConfig(): Promise<PanelConfig> {
  const response = await fetch(`${import.meta.env.BASE_URL}config.json`, { cache: 'no-store' });
  if (!response.ok) throw new Error(`config.json: HTTP ${response.status}`);
  const body = (await response.json()) as Partial<PanelConfig>;
  if (typeof body.apiUrl !== 'string') throw new Error('config.json has no "apiUrl"');
  return { apiUrl: body.apiUrl.replace(/\/+$/, '') };
}
