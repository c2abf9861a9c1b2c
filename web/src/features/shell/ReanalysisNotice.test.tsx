import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ReanalysisNotice, SentimentModelNotice } from './ReanalysisNotice';

afterEach(cleanup);

describe('ReanalysisNotice', () => {
  it('shows progress while a re-analysis runs', () => {
    render(<ReanalysisNotice reanalysis={{ processed: 250, total: 1000, removed: 12, done: false }} />);
    expect(screen.getByRole('status')).toHaveTextContent('Re-analyzing previous data: 250 of 1,000 posts checked, 12 removed.');
    expect(screen.getByText('25%')).toBeInTheDocument();
  });

  it('says queued before the first count', () => {
    render(<ReanalysisNotice reanalysis={{ processed: 0, total: 0, removed: 0, done: false }} />);
    expect(screen.getByRole('status')).toHaveTextContent('Re-analysis of previous data queued…');
  });

  it('is hidden when done or absent', () => {
    const { container, rerender } = render(<ReanalysisNotice reanalysis={{ processed: 5, total: 5, removed: 0, done: true }} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<ReanalysisNotice reanalysis={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('SentimentModelNotice', () => {
  it('shows how many stored posts the new model has scored', () => {
    render(<SentimentModelNotice progress={{ processed: 40_000, total: 160_000 }} />);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Updating sentiment with the new model: 40,000 of 160,000 stored posts scored. Sentiment figures may change until it finishes.',
    );
    expect(screen.getByText('25%')).toBeInTheDocument();
  });

  it('is hidden when no run is under way', () => {
    const { container } = render(<SentimentModelNotice progress={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});
