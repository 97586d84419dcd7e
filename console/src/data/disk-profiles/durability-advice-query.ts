import { useQuery } from '@tanstack/react-query';
import { api, apiCall } from '../fetcher';
import { diskProfileKeys } from './keys';

/** GET /v1/durability-advice: each durability level's write ceiling from the nodes' Redis disk profiles. */
export function getDurabilityAdvice(signal?: AbortSignal) {
  return apiCall(api.GET('/v1/durability-advice', { signal }));
}

export function useDurabilityAdviceQuery() {
  return useQuery({ queryKey: diskProfileKeys.advice(), queryFn: ({ signal }) => getDurabilityAdvice(signal), staleTime: 60_000 });
}
