import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateNotificationChannelRequest, Delivery, NotificationChannel, NotificationChannelList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { alertKeys } from './keys';

/** POST /v1/notification-channels → 201. */
export function createChannel(body: CreateNotificationChannelRequest): Promise<NotificationChannel> {
  return apiCall(api.POST('/v1/notification-channels', { body }));
}

/** DELETE /v1/notification-channels/{id} → 204. */
export async function deleteChannel(id: string): Promise<void> {
  await apiCall(api.DELETE('/v1/notification-channels/{id}', { params: { path: { id } } }));
}

/** POST /v1/notification-channels/{id}/test → 202 with the queued delivery. */
export function testChannel(id: string): Promise<Delivery> {
  return apiCall(api.POST('/v1/notification-channels/{id}/test', { params: { path: { id } } }));
}

export function useChannelCreateMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createChannel, onSuccess: () => void qc.invalidateQueries({ queryKey: alertKeys.all }) });
}

/** The deleted channel leaves the list at once, so its delivery log stops asking about it (a 404). */
export function useChannelDeleteMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteChannel,
    onSuccess: (_, id) => {
      qc.setQueryData<NotificationChannelList>(alertKeys.channels(), (l) => (l ? { items: l.items.filter((c) => c.id !== id) } : l));
      qc.removeQueries({ queryKey: alertKeys.deliveries(id) });
      void qc.invalidateQueries({ queryKey: alertKeys.channels() });
      void qc.invalidateQueries({ queryKey: alertKeys.rules() });
    },
  });
}

export function useChannelTestMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: testChannel, onSuccess: (d) => void qc.invalidateQueries({ queryKey: alertKeys.deliveries(d.channelId) }) });
}
