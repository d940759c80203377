/** Stylesheets of the list chrome's components (member chunk only; see src/theme/member-css.ts). */
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
import '@mantine/dates/styles.css';
