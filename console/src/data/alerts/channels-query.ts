import { useQuery } from '@tanstack/react-query';
import type { NotificationChannelList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { alertKeys } from './keys';

/** GET /v1/notification-channels (secrets are never returned). */
export function getChannels(signal?: AbortSignal): Promise<NotificationChannelList> {
  return apiCall(api.GET('/v1/notification-channels', { signal }));
}

export function useChannelsQuery() {
  return useQuery({ queryKey: alertKeys.channels(), queryFn: ({ signal }) => getChannels(signal) });
}
