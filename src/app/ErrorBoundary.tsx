// Keeps one panel's rendering bug from blanking the whole lab: the panel shows the error, the rest keeps working.
import { Component, type ReactNode } from 'react';

export class ErrorBoundary extends Component<{ name: string; children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (this.state.error) {
      return (
        <section className="panel error" data-testid="panel-error">
          <h2>The {this.props.name} panel failed</h2>
          <pre className="code">{this.state.error.message}</pre>
          <button onClick={() => this.setState({ error: null })}>Try again</button>
        </section>
      );
    }
    return this.props.children;
  }
}
