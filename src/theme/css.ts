/**
 * Stylesheets of the app shell and the public pages.
 *
 * Why per-component imports instead of '@mantine/core/styles.css': the whole Mantine stylesheet is
 * about 40 KB gzipped, while the budget for the first page (/login) is 15 KB of gzipped CSS. So the
 * entry loads only Mantine's baseline, CSS variables and global rules plus the components that the
 * public area and the shared components render, the notifications styles, and the Ubuntu weights
 * we use (400/500/700; @fontsource declares font-display: swap, so text is readable before the font
 * arrives). The weight files declare each subset (latin, latin-ext, greek, cyrillic…) with its unicode-range, so
 * a page downloads only the subsets its text uses — latin for English and Spanish, about 32 KB a weight. (The
 * single-subset files have no unicode-range: with latin and latin-ext both imported, every page downloaded all six
 * files, some 225 KB, competing with the scripts on a slow link.) Components used only inside the member area are
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

import '@fontsource/ubuntu/400.css';
import '@fontsource/ubuntu/500.css';
import '@fontsource/ubuntu/700.css';
