import type { TopologyInstance } from '@strata/api';
import { ProgressBar } from '../../components/ui/ProgressBar';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/**
 * A replica copying its primary's data (a new or rebuilt copy): how far it
 * is. With a diskless sync Redis does not know the total ahead, so only the
 * bytes received are shown.
 */
export function InstanceSync({ instance }: { instance: TopologyInstance }) {
  const sync = instance.sync;
  if (!sync) return null;
  const label = `${instance.nodeName} syncing from its primary`;
  return (
    <span className="instance-sync small" data-testid="instance-sync">
      {sync.totalBytes ? (
        <>
          <ProgressBar value={sync.receivedBytes / sync.totalBytes} label={label} />
          syncing {mb(sync.receivedBytes)} of {mb(sync.totalBytes)}
        </>
      ) : (
        <>syncing from its primary: {mb(sync.receivedBytes)} received</>
      )}
    </span>
  );
}
