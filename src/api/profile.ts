/** Basic details of the member: GET/PUT /api/user/profile, POST and DELETE /api/user/avatar. */
import { del, get, postMultipart, put } from './client';
import { profileSchema, type AvatarCrop, type ProfileValues } from '../schemas/profile.schema';

export const profileApi = {
  get: () => get(profileSchema, '/api/user/profile'),
  update: (values: ProfileValues) => put(profileSchema, '/api/user/profile', { first_name: values.first_name, last_name: values.last_name }),
  /** The image and the square of it to keep (pixels of the upright image). */
  avatar: (file: File, crop: AvatarCrop) => {
    const form = new FormData();
    form.append('avatar', file, file.name);
    form.append('crop_x', String(crop.crop_x));
    form.append('crop_y', String(crop.crop_y));
    form.append('crop_size', String(crop.crop_size));
    return postMultipart(profileSchema, '/api/user/avatar', form);
  },
  removeAvatar: () => del(profileSchema, '/api/user/avatar'),
};
