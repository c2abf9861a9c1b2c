import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '../client';
import type { Me } from '../types';
import { meKey } from './me';

export const setupKey = ['setup'] as const;

/** Whether the instance still needs its first account. */
export function useSetupStatus() {
  return useQuery({
    queryKey: setupKey,
    queryFn: () => get<{ needsSetup: boolean }>('/setup'),
    staleTime: 0,
  });
}

function useSignedIn() {
  const qc = useQueryClient();
  return (me: Me) => {
    qc.removeQueries({ queryKey: ['me'] });
    qc.removeQueries({ queryKey: ['trackers'] });
    qc.setQueryData(meKey(), me);
    qc.setQueryData(setupKey, { needsSetup: false });
  };
}

export function useSetup() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: (body: { name: string; email: string; password: string }) => post<Me>('/setup', body),
    onSuccess: signedIn,
  });
}

export function useLogin() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => post<Me>('/auth/login', body),
    onSuccess: signedIn,
  });
}

export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => post<void>('/auth/logout'),
    onSuccess: () => {
      qc.clear();
    },
  });
}
