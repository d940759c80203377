import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { followRoute, useFlowLoadRetry, type FlowLoader } from '../../src/app/flow-loading';

type Sent = { type: 'route.changed'; path: string; search: string };

function loader(outcomes: Array<'ok' | 'fail'>) {
  const loaded = new Set<string>();
  const calls: string[] = [];
  const waiting: Array<() => void> = [];
  const l: FlowLoader = {
    isFlowLoaded: (area) => !area || area === 'login' || loaded.has(area),
    loadFlow: (area) => {
      calls.push(area!);
      const outcome = outcomes.shift() ?? 'ok';
      return new Promise<void>((resolve, reject) => {
        waiting.push(() => {
          if (outcome === 'ok') {
            loaded.add(area!);
            resolve();
          } else reject(new TypeError('Failed to fetch dynamically imported module'));
        });
      });
    },
  };
  const settle = async () => {
    await act(async () => {
      while (waiting.length) waiting.shift()!();
      await Promise.resolve();
    });
  };
  return { l, calls, settle };
}

function RetryProbe({ area }: { area: string }) {
  const retry = useFlowLoadRetry(area);
  return retry ? <button onClick={retry}>retry {area}</button> : <p>no failure</p>;
}

describe('route changes wait for the flow of their area', () => {
  it('a page whose flow is on the first page is routed at once', () => {
    const sent: Sent[] = [];
    const { l, calls } = loader([]);
    followRoute({ send: (e) => sent.push(e) }, '/login', '?redirect=%2Fmember');
    expect(sent).toEqual([{ type: 'route.changed', path: '/login', search: '?redirect=%2Fmember' }]);
    followRoute({ send: (e) => sent.push(e) }, '/login/continue', '', l);
    expect(sent).toHaveLength(2);
    expect(calls).toEqual([]);
  });

  it('the location the session is already at (the page it started on, the echo of its own navigation) is not sent again', async () => {
    const sent: Sent[] = [];
    const { l, calls, settle } = loader(['ok']);
    const at = { path: '/login', search: '?redirect=%2Fmember' };
    const session = { send: (e: Sent) => sent.push(e), getSnapshot: () => ({ context: at }) };
    followRoute(session, '/login/', '?redirect=%2Fmember', l);
    followRoute(session, '/login', '?redirect=%2Fmember', l);
    expect(sent).toEqual([]);
    // Another query or another page is news.
    followRoute(session, '/login', '', l);
    followRoute(session, '/signup', '', l);
    await settle();
    expect(sent.map((e) => `${e.path}${e.search}`)).toEqual(['/login', '/signup']);
    expect(calls).toEqual(['signup']);
  });

  it('a deferred flow is loaded first, then the change is sent', async () => {
    const sent: Sent[] = [];
    const { l, calls, settle } = loader(['ok']);
    followRoute({ send: (e) => sent.push(e) }, '/signup', '?sponsor=demo', l);
    expect(calls).toEqual(['signup']);
    expect(sent).toEqual([]);
    await settle();
    expect(sent).toEqual([{ type: 'route.changed', path: '/signup', search: '?sponsor=demo' }]);
  });

  it('a location left before its flow arrived is never sent', async () => {
    const sent: Sent[] = [];
    const { l, settle } = loader(['ok']);
    const cancel = followRoute({ send: (e) => sent.push(e) }, '/password/forgot', '', l);
    cancel();
    followRoute({ send: (e) => sent.push(e) }, '/login', '', l);
    await settle();
    expect(sent.map((e) => e.path)).toEqual(['/login']);
  });

  it('a failed load offers a retry on that page; the retry loads again and routes', async () => {
    const sent: Sent[] = [];
    const { l, calls, settle } = loader(['fail', 'ok']);
    render(
      <>
        <RetryProbe area="signup" />
        <RetryProbe area="passwordReset" />
      </>,
    );
    act(() => {
      followRoute({ send: (e) => sent.push(e) }, '/signup', '', l);
    });
    await settle();
    expect(sent).toEqual([]);
    expect(screen.getByRole('button', { name: 'retry signup' })).toBeInTheDocument();
    // Only the page whose flow failed offers it.
    expect(screen.queryByRole('button', { name: 'retry passwordReset' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'retry signup' }));
    await settle();
    expect(calls).toEqual(['signup', 'signup']);
    expect(sent).toEqual([{ type: 'route.changed', path: '/signup', search: '' }]);
    expect(screen.queryByRole('button', { name: /retry/ })).not.toBeInTheDocument();
  });
});
