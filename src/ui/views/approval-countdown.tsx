/**
 * "Denied automatically in 9:58": how long the gate still waits for an answer. The ticking text is
 * not announced (aria-live off: a screen reader reading every second would drown everything else);
 * a separate polite region says once that one minute is left.
 */

import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';

const ONE_MINUTE = 60_000;

/** `9:58`, `1:02:03`: whole seconds left, rounded up (the call is still waiting during its last second). */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

export function ApprovalCountdown({ deadline }: { deadline: number }) {
  const now = useSignal(Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      now.value = Date.now();
    }, 1000);
    return () => clearInterval(timer);
  }, []);
  const left = deadline - now.value;
  return (
    <>
      <p class="tg-countdown" aria-live="off">
        {left > 0 ? (
          <>
            Denied automatically in <span class="tg-countdown-time">{formatRemaining(left)}</span>
          </>
        ) : (
          'Denied automatically: the time to answer is up.'
        )}
      </p>
      <p class="tg-visually-hidden" aria-live="polite">
        {left <= ONE_MINUTE && left > 0
          ? 'One minute left: this call will then be denied automatically.'
          : ''}
      </p>
    </>
  );
}
