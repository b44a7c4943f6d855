const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

const SCOPE_TEXT: Record<string, string> = {
  'apis.all': 'Full read and write access to everything',
  'apis.read': 'Read everything',
};
const describe = (scope: string) => {
  if (SCOPE_TEXT[scope]) return SCOPE_TEXT[scope];
  const [resource, mode] = scope.split('.');
  return `${mode === 'write' ? 'Create and change' : 'Read'} ${resource.replace(/-/g, ' ')}`;
};

export interface ConsentView {
  appName: string;
  appWebsite: string | null;
  /** The client registered itself: its name is its own claim, so the page says so and where the code goes. */
  selfRegistered: boolean;
  redirectHost: string;
  teamName: string;
  email: string;
  scopes: string[];
  hidden: Record<string, string>;
}

/** The consent page: plain HTML, no script, posted back with a CSRF token. */
export function consentPage(v: ConsentView): string {
  const hidden = Object.entries(v.hidden)
    .map(([k, val]) => `<input type="hidden" name="${esc(k)}" value="${esc(val)}">`)
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Authorize ${esc(v.appName)}</title>
  <style>
    body { font-family: system-ui, sans-serif; background: #f5f5f7; display: grid; place-items: center; min-height: 100vh; margin: 0; }
    main { background: #fff; padding: 2rem; border-radius: 12px; max-width: 28rem; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
    h1 { font-size: 1.25rem; } ul { padding-left: 1.2rem; } .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
    button { flex: 1; padding: .7rem; border-radius: 8px; border: 1px solid #ccc; font-size: 1rem; cursor: pointer; }
    button[value=allow] { background: #111; color: #fff; border-color: #111; } .muted { color: #666; font-size: .9rem; }
  </style>
</head>
<body>
  <main>
    <h1><strong>${esc(v.appName)}</strong> wants access to <strong>${esc(v.teamName)}</strong></h1>
    ${v.appWebsite ? `<p class="muted">${esc(v.appWebsite)}</p>` : ''}
    ${v.selfRegistered ? `<p class="muted">This application registered itself; nobody has checked its name. Allowing sends access to <strong>${esc(v.redirectHost)}</strong>.</p>` : ''}
    <p>Signed in as ${esc(v.email)}. It will be able to:</p>
    <ul>${v.scopes.map((s) => `<li>${esc(describe(s))} <span class="muted">(${esc(s)})</span></li>`).join('')}</ul>
    <form method="post" action="/oauth/authorize">
      ${hidden}
      <div class="actions">
        <button type="submit" name="decision" value="deny">Deny</button>
        <button type="submit" name="decision" value="allow">Allow</button>
      </div>
    </form>
  </main>
</body>
</html>`;
}

export function signInRequiredPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in required</title></head>
<body style="font-family: system-ui, sans-serif; padding: 2rem"><h1>Sign in required</h1>
<p>Sign in to the dashboard first, then open this link again.</p></body></html>`;
}
