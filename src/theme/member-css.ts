/**
 * Stylesheets of components that only the member area renders. Imported by the member shell so they
 * travel with the member chunk and stay out of the /login budget (see src/theme/css.ts).
 */
import '@mantine/core/styles/AppShell.css';
import '@mantine/core/styles/Menu.css';
import '@mantine/core/styles/Avatar.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/Skeleton.css';
import '@mantine/core/styles/Tabs.css';
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/NavLink.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/Tooltip.css';
import '@mantine/core/styles/ThemeIcon.css';
import '@mantine/core/styles/Indicator.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Drawer.css';
import '@mantine/core/styles/Typography.css';
