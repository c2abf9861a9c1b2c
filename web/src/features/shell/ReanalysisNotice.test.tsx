import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ReanalysisNotice } from './ReanalysisNotice';

describe('ReanalysisNotice', () => {
  it('shows progress while a re-analysis runs', () => {
    render(<ReanalysisNotice reanalysis={{ processed: 250, total: 1000, removed: 12, done: false }} />);
    expect(screen.getByRole('status')).toHaveTextContent('Re-analyzing previous data: 250 of 1,000 posts checked, 12 removed.');
    expect(screen.getByText('25%')).toBeInTheDocument();
  });

  it('is hidden when done or absent', () => {
    const { container, rerender } = render(<ReanalysisNotice reanalysis={{ processed: 5, total: 5, removed: 0, done: true }} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<ReanalysisNotice reanalysis={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});
