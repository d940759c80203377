import '@testing-library/jest-dom/vitest';

// The flows the app loads on first use are loaded up front for tests.
import { loadAllFlows } from '../../src/machines/deferred-flows';
beforeAll(() => loadAllFlows());
