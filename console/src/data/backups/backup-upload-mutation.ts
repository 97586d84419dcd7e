import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BackupResponse } from '@strata/api';
import { uploadFile } from '../fetcher';
import { backupKeys } from './keys';

/** POST /v1/backups/upload?name= (the file as the raw body) → 201 {backup}; `onProgress`: bytes sent of the total. */
export function uploadBackup(file: Blob, name: string, onProgress?: (sent: number, total: number) => void): Promise<BackupResponse> {
  return uploadFile(`/v1/backups/upload?name=${encodeURIComponent(name)}`, file, onProgress);
}

export function useBackupUploadMutation(onProgress: (sent: number, total: number) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, name }: { file: File; name: string }) => uploadBackup(file, name, onProgress),
    onSettled: () => void qc.invalidateQueries({ queryKey: backupKeys.all }),
  });
}
