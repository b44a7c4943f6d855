import path from 'node:path';
import Router from '@koa/router';
import send from 'koa-send';
import type { AppState } from './http/state';

const ASSET_ROOT = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
  'favicon-16x16.png',
  // Where our authorization server sends the browser back after *Authorize*; it hands the code to the page.
  'oauth2-redirect.html',
  'oauth2-redirect.js',
]);

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Finops API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" href="/reference/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/reference/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/reference/assets/swagger-ui-bundle.js"></script>
  <script src="/reference/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/reference/init.js"></script>
</body>
</html>`;

// Kept out of the HTML so a strict Content-Security-Policy (no inline script) can apply. *Authorize*
// runs the OAuth2 scheme's authorization code flow with PKCE, so a public application (no secret)
// registered with OAUTH_REDIRECT_PATH as its redirect URI can sign in from this page.
export const OAUTH_REDIRECT_PATH = '/reference/assets/oauth2-redirect.html';
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json', dom_id: '#reference', deepLinking: true, persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout',
  validatorUrl: null, oauth2RedirectUrl: window.location.origin + '${OAUTH_REDIRECT_PATH}'
});
window.ui.initOAuth({ usePkceWithAuthorizationCodeGrant: true, appName: 'Finops API reference' });`;

/** The interactive reference at GET /, served entirely from node_modules: it works offline. */
export function referencePageRouter() {
  const router = new Router<AppState>();
  router.get('/', (ctx) => {
    ctx.type = 'html';
    ctx.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
    ctx.body = PAGE;
  });
  router.get('/reference/init.js', (ctx) => {
    ctx.type = 'application/javascript';
    ctx.body = INIT;
  });
  router.get('/reference/assets/:file', async (ctx) => {
    if (!ASSETS.has(ctx.params.file)) return; // falls through to the 404 envelope
    ctx.set('Cache-Control', 'public, max-age=86400');
    await send(ctx, ctx.params.file, { root: ASSET_ROOT });
  });
  return router;
}
