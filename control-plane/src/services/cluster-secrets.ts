import type { EngineCredentials } from '@strata/api';
import type { SecretBox } from '../crypto/secret-box';

/** Engine credentials of one cluster, stored sealed in clusters.secrets_enc. */
export type ClusterSecrets = EngineCredentials;

export const openSecrets = (box: SecretBox, sealed: string): ClusterSecrets => JSON.parse(box.open(sealed)) as ClusterSecrets;
