import type { StorybookConfig } from '@storybook/react-vite';

/**
 * Storybook for the chat widget. No addons: everything used (controls, actions,
 * interactions, `storybook/test`) is in Storybook's core and works offline.
 */
const config: StorybookConfig = {
  framework: {
    name: '@storybook/react-vite',
    // Effects run twice, as in a React 19 app in development: the widget must not mind.
    options: { strictMode: true },
  },
  stories: ['../stories/**/*.stories.tsx'],
  addons: [],
  core: {
    disableTelemetry: true,
    disableWhatsNewNotifications: true,
  },
};

export default config;
