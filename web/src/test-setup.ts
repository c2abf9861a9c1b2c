import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// `make test` runs these beside the Rust tests on shared cores, where a render can take well
// over the library's default second: findBy* and waitFor wait up to 10 s (a passing test still
// ends as soon as its condition holds).
configure({ asyncUtilTimeout: 10_000 });
