/** The served site's DEPLOY_NOTIFICATION_SECRET (playwright.config.ts), so a test can sign Netlify's deploy notifications. */
export const E2E_DEPLOY_NOTIFICATION_SECRET = 'e2e-deploy-notification-secret';
