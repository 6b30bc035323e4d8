import { defineConfig } from '@playwright/test'

import { chromiumLaunchOptions } from './scripts/ensure-browser.cjs'
import { SERVERS } from './tests/e2e/servers'

export default defineConfig({
  testDir: 'tests/e2e',
  workers: 2,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: SERVERS.site.url,
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    { name: 'mobile', use: { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } },
  ],
  webServer: [
    {
      command: `./node_modules/.bin/next start -H 127.0.0.1 -p ${SERVERS.site.port}`,
      url: SERVERS.site.url,
      env: { NEXT_TELEMETRY_DISABLED: '1', NEXT_PUBLIC_SANITY_PROJECT_ID: '', SANITY_API_HOST: '', SANITY_IMAGE_HOST: '', SUPABASE_URL: '', SUPABASE_ANON_KEY: '', LEADS_DATA_DIR: '.data/e2e/site', NEXT_DIST_DIR: '.next-test' },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
})
