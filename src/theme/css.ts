/**
 * Stylesheets of the app shell and the public pages.
 *
 * Why per-component imports instead of '@mantine/core/styles.css': the whole Mantine stylesheet is
 * about 40 KB gzipped, while the budget for the first page (/login) is 15 KB of gzipped CSS. So the
 * entry loads only Mantine's baseline, CSS variables and global rules plus the components that the
 * public area and the shared components render, the notifications styles, and the Ubuntu weights
 * we use (400/500/700, latin and latin-ext subsets only; @fontsource declares font-display: swap,
 * so text is readable before the font arrives). Components used only inside the member area are
 * imported by src/theme/member-css.ts, which is loaded with the member chunk.
 *
 * Order matters: baseline → variables → global → components (dependencies before dependants) →
 * other Mantine packages → app styles.
 */
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';

import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Flex.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/LoadingOverlay.css';
import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Divider.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/PinInput.css';
import '@mantine/core/styles/Notification.css';

import '@mantine/notifications/styles.css';

import '@fontsource/ubuntu/latin-400.css';
import '@fontsource/ubuntu/latin-500.css';
import '@fontsource/ubuntu/latin-700.css';
import '@fontsource/ubuntu/latin-ext-400.css';
import '@fontsource/ubuntu/latin-ext-500.css';
import '@fontsource/ubuntu/latin-ext-700.css';
